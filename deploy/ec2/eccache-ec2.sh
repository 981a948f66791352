#!/usr/bin/env bash
# Stands up the EC-Cache paper's EC2 setup (one Alluxio master with the eccache plugin, 25 workers
# with 8 GB of cache each, 30 client machines, an S3 bucket), runs the cluster benchmark on the
# clients, collects the results and tears everything down. Every resource is tagged with the run id,
# and teardown finds them by that tag, so a failed run can always be cleaned up (`down`).
#
#   deploy/ec2/eccache-ec2.sh cost                       # what a run costs, no AWS call
#   deploy/ec2/eccache-ec2.sh all --dry-run              # print every AWS call, change nothing
#   deploy/ec2/eccache-ec2.sh all --key-name me --instance-profile eccache-ec2
#   deploy/ec2/eccache-ec2.sh down --run-id <id>         # clean up a run
#
# Needs: the AWS CLI v2 with credentials (not for --dry-run), the jars built
# (mvn -B -ntp -DskipTests package), an EC2 key pair and an instance profile that may read and
# write the run's bucket and use SSM (AmazonSSMManagedInstanceCore).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/deploy/ec2"

# Defaults: the paper's cluster (Sec. 6: 55 c4.8xlarge, 25 servers with 8 GB cache, 30 clients).
region=${AWS_REGION:-us-east-1}
run_id="eccache-$(date +%Y%m%d-%H%M%S)"
workers=25
clients=30
instance_type=c4.8xlarge
master_type=c4.8xlarge
worker_cache=8GB
ami_parameter=/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64
hours=3
profile=full
key_name=""
instance_profile=""
dry_run=false
out_dir=""

# On-demand Linux prices in us-east-1, USD per hour (AWS price list, mid-2024; check
# https://aws.amazon.com/ec2/pricing/on-demand/ before a real run: prices change).
declare -A hourly=(
  [c4.8xlarge]=1.591 [c5.9xlarge]=1.530 [c6i.8xlarge]=1.360 [r5.2xlarge]=0.504
  [m5.xlarge]=0.192 [m5.large]=0.096
)
s3_gb_month=0.023

usage() {
  cat <<USAGE
Usage: $(basename "$0") COMMAND [options]
Commands:
  cost      print the cost estimate of a run (no AWS call)
  up        bucket, artifacts, security group, master, workers, clients
  bench     run the cluster benchmark on the clients (SSM) and wait for it
  collect   copy the results from the bucket to benchmarks/results/ec2/<run-id>/
  down      terminate the run's instances, delete its security group and bucket
  all       up, bench, collect, down (down also runs if a step fails)
Options:
  --dry-run                 print every AWS call instead of making it (no credentials needed)
  --run-id ID               name and tag of the run (default: eccache-<date>-<time>)
  --region R                AWS region (default $region)
  --workers N --clients N   cluster size (default $workers and $clients)
  --instance-type T         workers and clients (default $instance_type); --master-type T
  --worker-cache SIZE       cache per worker (default $worker_cache)
  --key-name NAME           EC2 key pair for SSH access
  --instance-profile NAME   IAM instance profile with S3 (run bucket) and SSM access
  --hours H                 expected run time, for the estimate (default $hours)
  --profile quick|full      benchmark profile (default $profile)
  --out DIR                 where rendered templates go (default: a temporary directory)
USAGE
}

# --- AWS calls: printed, and made unless --dry-run ------------------------------------------
# aws_call prints the call; in a dry run it answers with $DRY_ANSWER (what later steps need).
aws_call() {
  { printf '+ aws'; printf ' %q' "$@"; printf '\n'; } >&2
  if $dry_run; then
    if [ -n "${DRY_ANSWER:-}" ]; then
      echo "$DRY_ANSWER"
    fi
  else
    aws --region "$region" "$@"
  fi
}

bucket() { echo "$run_id"; }

cost() {
  local type_price master_price instances total
  type_price=${hourly[$instance_type]:-}
  master_price=${hourly[$master_type]:-}
  if [ -z "$type_price" ] || [ -z "$master_price" ]; then
    echo "no price for $instance_type or $master_type in this script's table: add it" >&2
    return 1
  fi
  instances=$((workers + clients))
  total=$(awk -v n="$instances" -v p="$type_price" -v mp="$master_price" -v h="$hours" \
    -v s3="$s3_gb_month" 'BEGIN { printf "%.2f", (n * p + mp) * h + 50 * s3 }')
  echo "Estimated cost: \$$total for $hours h in $region: 1 x $master_type (\$$master_price/h)" \
    "+ $instances x $instance_type (\$$type_price/h: $workers workers, $clients clients)" \
    "+ under \$1.15 of S3 (50 GB for a month at most); on-demand prices, data transfer within" \
    "one AZ free"
}

# Replaces every @@NAME@@ in template $1 with the variable NAME's value; writes $2.
render() {
  local text name
  text=$(<"$1")
  for name in RUN_ID ROLE MASTER_HOST BUCKET REGION WORKER_CACHE SITE_PROPERTIES; do
    text=${text//@@${name}@@/${!name-}}
  done
  if [[ $text == *@@*@@* ]]; then
    echo "unrendered placeholder left in $1" >&2
    return 1
  fi
  printf '%s\n' "$text" > "$2"
}

render_role() { # role master_host -> path of the rendered user data
  ROLE=$1 MASTER_HOST=$2 RUN_ID=$run_id BUCKET=$(bucket) REGION=$region \
    WORKER_CACHE=$worker_cache
  export ROLE MASTER_HOST RUN_ID BUCKET REGION WORKER_CACHE
  render "$here/templates/alluxio-site.properties.tpl" "$out_dir/alluxio-site.properties.$1"
  SITE_PROPERTIES=$(<"$out_dir/alluxio-site.properties.$1")
  export SITE_PROPERTIES
  render "$here/templates/user-data.sh.tpl" "$out_dir/user-data.$1.sh"
  echo "$out_dir/user-data.$1.sh"
}

launch() { # role count type user-data -> instance ids
  local tags="ResourceType=instance,Tags=[{Key=eccache-run,Value=$run_id},{Key=eccache-role,Value=$1}]"
  local args=(ec2 run-instances --image-id "resolve:ssm:$ami_parameter" --count "$2"
    --instance-type "$3" --security-group-ids "$sg" --user-data "file://$4"
    --tag-specifications "$tags" --query 'Instances[].InstanceId' --output text)
  if [ -n "$key_name" ]; then args+=(--key-name "$key_name"); fi
  if [ -n "$instance_profile" ]; then args+=(--iam-instance-profile "Name=$instance_profile"); fi
  DRY_ANSWER="i-dryrun-$1" aws_call "${args[@]}"
}

up() {
  if ! $dry_run && [ -z "$instance_profile" ]; then
    echo "up needs --instance-profile (S3 and SSM access for the instances)" >&2
    return 1
  fi
  local jar_dir="$root/benchmarks/target"
  if ! $dry_run && [ ! -d "$jar_dir/lib" ]; then
    echo "build first: mvn -B -ntp -DskipTests package" >&2
    return 1
  fi
  aws_call s3 mb "s3://$(bucket)"
  aws_call s3api put-bucket-tagging --bucket "$(bucket)" \
    --tagging "TagSet=[{Key=eccache-run,Value=$run_id}]"
  if ! $dry_run; then
    tar czf "$out_dir/eccache-bench.tar.gz" -C "$root/benchmarks/target" classes lib
  fi
  aws_call s3 cp "$root/eccache-coordinator/target/eccache-coordinator-0.1.0-SNAPSHOT.jar" \
    "s3://$(bucket)/eccache/eccache-coordinator.jar"
  aws_call s3 cp "$root/eccache-policy/target/eccache-policy-0.1.0-SNAPSHOT.jar" \
    "s3://$(bucket)/eccache/eccache-policy.jar"
  aws_call s3 cp "$root/eccache-shell/target/eccache-shell-0.1.0-SNAPSHOT-alluxio.jar" \
    "s3://$(bucket)/eccache/eccache-shell-alluxio.jar"
  aws_call s3 cp "$out_dir/eccache-bench.tar.gz" "s3://$(bucket)/eccache/eccache-bench.tar.gz"
  sg=$(DRY_ANSWER=sg-dryrun aws_call ec2 create-security-group --group-name "$run_id" \
    --description "eccache run $run_id" --tag-specifications \
    "ResourceType=security-group,Tags=[{Key=eccache-run,Value=$run_id}]" \
    --query GroupId --output text)
  aws_call ec2 authorize-security-group-ingress --group-id "$sg" --protocol -1 \
    --source-group "$sg" >/dev/null
  aws_call ec2 authorize-security-group-ingress --group-id "$sg" --protocol tcp --port 22 \
    --cidr 0.0.0.0/0 >/dev/null
  local master
  # The master learns its own address at boot (the user data sets it).
  master=$(launch master 1 "$master_type" "$(render_role master this-instance)")
  aws_call ec2 wait instance-running --instance-ids "$master"
  master_ip=$(DRY_ANSWER=10.0.0.10 aws_call ec2 describe-instances --instance-ids "$master" \
    --query 'Reservations[0].Instances[0].PrivateIpAddress' --output text)
  launch worker "$workers" "$instance_type" "$(render_role worker "$master_ip")" >/dev/null
  launch client "$clients" "$instance_type" "$(render_role client "$master_ip")" >/dev/null
  echo "$master_ip" > "$out_dir/master-ip"
  echo "run $run_id is up: master $master_ip, $workers workers, $clients clients" >&2
}

bench() {
  local master_ip command
  master_ip=$(cat "$out_dir/master-ip" 2>/dev/null || echo 10.0.0.10)
  # Every client runs the benchmark's readers in 8 JVMs against the shared cluster, then uploads
  # its results under its own name.
  command="cd /opt/eccache && java -Xmx8g -cp 'classes:lib/*' io.eccache.benchmarks.cli.EcCacheBench bench"
  command+=" --master $master_ip:19998 --profile $profile --client-jvms 8 --out results"
  command+=" --scenario skew --scenario size --scenario k --scenario delta --scenario writes"
  command+=" && aws s3 cp --recursive results s3://$(bucket)/results/\$(hostname)/"
  local id
  id=$(DRY_ANSWER=dryrun-command aws_call ssm send-command --document-name AWS-RunShellScript \
    --targets "Key=tag:eccache-run,Values=$run_id" "Key=tag:eccache-role,Values=client" \
    --parameters "commands=[\"$command\"]" --timeout-seconds 14400 \
    --query Command.CommandId --output text)
  aws_call ssm wait command-executed --command-id "$id" >/dev/null || true
  aws_call ssm list-command-invocations --command-id "$id" --query 'CommandInvocations[].Status' \
    --output text
}

collect() {
  local dest="$root/benchmarks/results/ec2/$run_id"
  $dry_run || mkdir -p "$dest"
  aws_call s3 cp --recursive "s3://$(bucket)/results/" "$dest/" >/dev/null
  echo "results of $run_id in $dest" >&2
}

down() {
  local ids
  ids=$(DRY_ANSWER="i-dryrun-master i-dryrun-worker i-dryrun-client" aws_call ec2 \
    describe-instances --filters "Name=tag:eccache-run,Values=$run_id" \
    "Name=instance-state-name,Values=pending,running,stopping,stopped" \
    --query 'Reservations[].Instances[].InstanceId' --output text)
  if [ -n "$ids" ]; then
    # shellcheck disable=SC2086 # one argument per instance id
    aws_call ec2 terminate-instances --instance-ids $ids >/dev/null
    # shellcheck disable=SC2086
    aws_call ec2 wait instance-terminated --instance-ids $ids
  fi
  local groups
  groups=$(DRY_ANSWER=sg-dryrun aws_call ec2 describe-security-groups \
    --filters "Name=tag:eccache-run,Values=$run_id" --query 'SecurityGroups[].GroupId' \
    --output text)
  for g in $groups; do
    aws_call ec2 delete-security-group --group-id "$g"
  done
  aws_call s3 rb "s3://$(bucket)" --force || true
  echo "run $run_id is torn down" >&2
}

main() {
  if [ $# -lt 1 ]; then
    usage
    exit 2
  fi
  local cmd=$1
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --dry-run) dry_run=true ;;
      --run-id) run_id=$2; shift ;;
      --region) region=$2; shift ;;
      --workers) workers=$2; shift ;;
      --clients) clients=$2; shift ;;
      --instance-type) instance_type=$2; shift ;;
      --master-type) master_type=$2; shift ;;
      --worker-cache) worker_cache=$2; shift ;;
      --key-name) key_name=$2; shift ;;
      --instance-profile) instance_profile=$2; shift ;;
      --hours) hours=$2; shift ;;
      --profile) profile=$2; shift ;;
      --out) out_dir=$2; shift ;;
      -h|--help) usage; exit 0 ;;
      *) echo "unknown option $1" >&2; usage; exit 2 ;;
    esac
    shift
  done
  if [ -z "$out_dir" ]; then
    out_dir=$(mktemp -d)
  fi
  mkdir -p "$out_dir"
  if ! $dry_run && [ "$cmd" != cost ] && ! command -v aws >/dev/null; then
    echo "the AWS CLI is not installed (https://aws.amazon.com/cli/); --dry-run works without" >&2
    exit 1
  fi
  $dry_run && echo "DRY RUN: printing AWS calls, changing nothing" >&2
  case $cmd in
    cost) cost ;;
    up) cost; up ;;
    bench) bench ;;
    collect) collect ;;
    down) down ;;
    all)
      cost
      trap 'echo "a step failed: tearing down $run_id" >&2; down' ERR
      up
      bench
      collect
      trap - ERR
      down
      ;;
    *) usage; exit 2 ;;
  esac
}

main "$@"
