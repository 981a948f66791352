#!/usr/bin/env bash
# A stand-in for the AWS CLI, for Ec2TeardownTest: logs every call ("N ARGS" in
# $FAKE_AWS_DIR/calls.log), answers eccache-ec2.sh's queries as the real CLI would with
# --output text, and fails the call numbered $FAKE_AWS_FAIL_AT as AWS errors look. Knobs:
# FAKE_AWS_QUOTA, FAKE_AWS_BENCH_STATUS, FAKE_AWS_TAGGED_INSTANCES, FAKE_AWS_BUCKET_TAG.
set -euo pipefail
dir=${FAKE_AWS_DIR:?FAKE_AWS_DIR is not set}
count=$(($(cat "$dir/count" 2>/dev/null || echo 0) + 1))
echo "$count" > "$dir/count"
if [ "${1:-}" = --region ]; then
  shift 2
fi
printf '%s %s\n' "$count" "$*" >> "$dir/calls.log"
if [ "$count" = "${FAKE_AWS_FAIL_AT:-0}" ]; then
  echo "An error occurred (InjectedFailure) when calling $1 $2: call $count fails" >&2
  exit 254
fi
args=" $* "
case "$1 $2" in
  "service-quotas get-service-quota") echo "${FAKE_AWS_QUOTA:-5000.0}" ;;
  "ec2 describe-instance-types") echo 2 ;;
  "ec2 create-security-group") echo sg-0fake ;;
  "ec2 run-instances")
    role=$(grep -o 'Key=eccache-role,Value=[a-z]*' <<<"$args" | cut -d= -f3)
    n=$(sed -n 's/.* --count \([0-9]*\) .*/\1/p' <<<"$args")
    ids=()
    for i in $(seq "$n"); do ids+=("i-$role$i"); done
    (IFS=$'\t'; echo "${ids[*]}")
    ;;
  "ec2 describe-instances")
    # The master's address; a lookup by tag finds $FAKE_AWS_TAGGED_INSTANCES (none by default).
    if [[ $args != *" --filters "* ]]; then echo 10.0.0.10; else echo "${FAKE_AWS_TAGGED_INSTANCES:-}"; fi
    ;;
  "s3api get-bucket-tagging")
    if [ -z "${FAKE_AWS_BUCKET_TAG:-}" ]; then
      echo "An error occurred (NoSuchBucket) when calling the GetBucketTagging operation" >&2
      exit 254
    fi
    echo "$FAKE_AWS_BUCKET_TAG"
    ;;
  "ssm describe-instance-information") echo Online ;;
  "ssm send-command")
    if [[ $args == *EcCacheBench* ]]; then echo "cmd-bench-$count"; else echo "cmd-ready-$count"; fi
    ;;
  "ssm get-command-invocation")
    if [[ $args == *cmd-bench-* ]]; then echo "${FAKE_AWS_BENCH_STATUS:-Success}"; else echo Success; fi
    ;;
  "s3 mb") echo "make_bucket: ${3#s3://}" ;;
esac
