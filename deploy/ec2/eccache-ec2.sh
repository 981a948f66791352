#!/usr/bin/env bash
# Stands up the EC-Cache paper's EC2 setup (one Alluxio master with the eccache plugin, 25 workers
# with 8 GB of cache each, 30 client machines, an S3 bucket), runs the cluster benchmark on the
# clients, collects the results and tears everything down.
#
#   deploy/ec2/eccache-ec2.sh cost                       # what a run costs, no AWS call
#   deploy/ec2/eccache-ec2.sh all --dry-run --alluxio-sha512 HEX   # print every AWS call, change nothing
#   deploy/ec2/eccache-ec2.sh all --instance-profile eccache-ec2 --alluxio-sha512 HEX
#   deploy/ec2/eccache-ec2.sh down --run-id <id>         # clean up a run
#
# Never strands resources: every resource is recorded in the run's state file as soon as AWS
# returns its id (bucket, security group, instances), and an EXIT trap tears down what the file
# lists on every exit path of `all` (success, a failed step, Ctrl-C) and of a failed `up`. Every
# resource is also tagged eccache-run=<run-id>; `down` removes what the state file lists plus any
# instance or security group carrying the tag. Before launching, the On-Demand Standard vCPU quota
# is checked; the benchmark is sent only once every instance has registered with SSM and finished
# cloud-init, and each client's command invocation is polled to its end (bounded waits): a failed
# or timed-out benchmark fails the run. SSH stays closed unless --ssh-cidr opens it to one range.
#
# Needs: the AWS CLI v2 with credentials (not for --dry-run), the jars built
# (mvn -B -ntp -DskipTests package) and an instance profile that may read and write the run's
# bucket and use SSM (AmazonSSMManagedInstanceCore).
set -Eeuo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/deploy/ec2"
# Where the jars are read and results written (the tests point it at a stand-in tree).
build_root=${ECCACHE_BUILD_ROOT:-$root}

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
ssh_cidr=""
dry_run=false
out_dir=""

# The Alluxio release every instance installs, pinned by its SHA-512. The official checksum is
# published beside the tarball:
#   https://downloads.alluxio.io/downloads/files/2.9.6/alluxio-2.9.6-bin.tar.gz.sha512
# It could not be fetched where this script was written, so it is not pinned here: `up` and `all`
# refuse to run until it is set, here or with --alluxio-sha512 (check it against that file, or
# against `sha512sum` of a tarball you trust).
alluxio_url=https://downloads.alluxio.io/downloads/files/2.9.6/alluxio-2.9.6-bin.tar.gz
alluxio_sha512=""

# Bounded waits, in seconds (the tests shorten them).
poll_seconds=${ECCACHE_EC2_POLL_SECONDS:-10}
ssm_timeout=${ECCACHE_EC2_SSM_TIMEOUT:-900}      # every instance registered with SSM
ready_timeout=${ECCACHE_EC2_READY_TIMEOUT:-1800} # cloud-init finished everywhere
bench_timeout=${ECCACHE_EC2_BENCH_TIMEOUT:-14400}
# How long past a command's own SSM timeout its invocations are polled (SSM then reports TimedOut).
wait_margin=${ECCACHE_EC2_WAIT_MARGIN:-120}

# The service quota "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", in vCPUs.
vcpu_quota_code=L-1216C47A

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
  up        quota check, bucket, artifacts, security group, master, workers, clients; waits until
            every instance is registered with SSM and has finished cloud-init (torn down if it fails)
  bench     run the cluster benchmark on the clients (SSM) and wait for every client's result
  collect   copy the results from the bucket to benchmarks/results/ec2/<run-id>/
  down      terminate the run's instances, delete its security group and bucket
  all       up, bench, collect, down; down runs on every exit path
Options:
  --dry-run                 print every AWS call instead of making it (no credentials needed)
  --run-id ID               name and tag of the run (default: eccache-<date>-<time>)
  --region R                AWS region (default $region)
  --workers N --clients N   cluster size (default $workers and $clients)
  --instance-type T         workers and clients (default $instance_type); --master-type T
  --worker-cache SIZE       cache per worker (default $worker_cache)
  --instance-profile NAME   IAM instance profile with S3 (run bucket) and SSM access
  --ssh-cidr CIDR           open SSH (port 22) to this range only, e.g. 203.0.113.7/32; closed
                            without it (SSM needs no inbound port)
  --key-name NAME           EC2 key pair, for SSH with --ssh-cidr
  --alluxio-sha512 HEX      the SHA-512 of the Alluxio tarball (see the script's header)
  --alluxio-url URL         where instances download Alluxio 2.9.6 (default: the official site)
  --hours H                 expected run time, for the estimate (default $hours)
  --profile quick|full      benchmark profile (default $profile)
  --out DIR                 state file and rendered templates (default ~/.eccache-ec2/<run-id>)
USAGE
}

die() { # status message...
  local status=$1
  shift
  echo "eccache-ec2: $*" >&2
  exit "$status"
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

# --- The state file: one line per created resource, "KIND ID [ROLE]", written as AWS returns it.
state_file() { echo "$out_dir/state"; }
record() { echo "$*" >> "$(state_file)"; }
recorded() { # kind [role] -> ids, one per line, in the order they were created
  [ -f "$(state_file)" ] || return 0
  awk -v kind="$1" -v role="${2:-}" \
    '$1 == kind && (role == "" || $3 == role) && !seen[$2]++ { print $2 }' "$(state_file)"
}

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
  for name in RUN_ID ROLE MASTER_HOST BUCKET REGION WORKER_CACHE SITE_PROPERTIES ALLUXIO_URL \
    ALLUXIO_SHA512; do
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
    WORKER_CACHE=$worker_cache ALLUXIO_URL=$alluxio_url ALLUXIO_SHA512=$alluxio_sha512
  export ROLE MASTER_HOST RUN_ID BUCKET REGION WORKER_CACHE ALLUXIO_URL ALLUXIO_SHA512
  render "$here/templates/alluxio-site.properties.tpl" "$out_dir/alluxio-site.properties.$1"
  SITE_PROPERTIES=$(<"$out_dir/alluxio-site.properties.$1")
  export SITE_PROPERTIES
  render "$here/templates/user-data.sh.tpl" "$out_dir/user-data.$1.sh"
  echo "$out_dir/user-data.$1.sh"
}

# --- Checks before anything is created -------------------------------------------------------
artifacts() {
  echo "$build_root/eccache-coordinator/target/eccache-coordinator-0.2.0.jar"
  echo "$build_root/eccache-policy/target/eccache-policy-0.2.0.jar"
  echo "$build_root/eccache-worker/target/eccache-worker-0.2.0.jar"
  echo "$build_root/eccache-lognode/target/eccache-lognode-0.2.0.jar"
  echo "$build_root/eccache-shell/target/eccache-shell-0.2.0-alluxio.jar"
}

check_up_inputs() {
  if ! [[ $alluxio_sha512 =~ ^[0-9a-f]{128}$ ]]; then
    die 2 "the Alluxio tarball's SHA-512 is not pinned: pass --alluxio-sha512 HEX (128 hex" \
      "digits) from ${alluxio_url}.sha512, or set alluxio_sha512 in this script"
  fi
  if ! $dry_run && [ -z "$instance_profile" ]; then
    die 2 "up needs --instance-profile (S3 and SSM access for the instances)"
  fi
  if ! $dry_run; then
    local f
    while read -r f; do
      [ -f "$f" ] || die 2 "$f is missing: build first (mvn -B -ntp -DskipTests package)"
    done < <(artifacts)
    [ -d "$build_root/benchmarks/target/lib" ] ||
      die 2 "$build_root/benchmarks/target/lib is missing: build first (mvn -B -ntp -DskipTests package)"
  fi
}

vcpus_of() { # instance type -> default vCPUs
  local n
  n=$(DRY_ANSWER=36 aws_call ec2 describe-instance-types --instance-types "$1" \
    --query 'InstanceTypes[0].VCpuInfo.DefaultVCpus' --output text)
  [[ $n =~ ^[0-9]+$ ]] || die 1 "cannot tell how many vCPUs $1 has (describe-instance-types: '$n')"
  echo "$n"
}

check_vcpu_quota() {
  local quota type_vcpus master_vcpus need
  quota=$(DRY_ANSWER=2048.0 aws_call service-quotas get-service-quota --service-code ec2 \
    --quota-code "$vcpu_quota_code" --query Quota.Value --output text)
  quota=${quota%.*}
  [[ $quota =~ ^[0-9]+$ ]] || die 1 "cannot read the vCPU quota $vcpu_quota_code: '$quota'"
  type_vcpus=$(vcpus_of "$instance_type")
  if [ "$master_type" = "$instance_type" ]; then
    master_vcpus=$type_vcpus
  else
    master_vcpus=$(vcpus_of "$master_type")
  fi
  need=$(((workers + clients) * type_vcpus + master_vcpus))
  if [ "$need" -gt "$quota" ]; then
    die 1 "the run needs $need vCPUs of On-Demand Standard instances ($((workers + clients)) x" \
      "$instance_type with $type_vcpus, 1 x $master_type with $master_vcpus) but the quota" \
      "$vcpu_quota_code in $region is $quota: ask for an increase in Service Quotas, or use" \
      "fewer or smaller instances (--workers, --clients, --instance-type)"
  fi
  echo "vCPU quota: $need of $quota On-Demand Standard vCPUs in $region (instances already" \
    "running count against it too)" >&2
}

# --- Launching -------------------------------------------------------------------------------
launch() { # role count type user-data -> records and prints the instance ids
  local tags="ResourceType=instance,Tags=[{Key=eccache-run,Value=$run_id},{Key=eccache-role,Value=$1}]"
  local args=(ec2 run-instances --image-id "resolve:ssm:$ami_parameter" --count "$2"
    --instance-type "$3" --security-group-ids "$sg" --user-data "file://$4"
    --tag-specifications "$tags" --query 'Instances[].InstanceId' --output text)
  if [ -n "$key_name" ]; then args+=(--key-name "$key_name"); fi
  if [ -n "$instance_profile" ]; then args+=(--iam-instance-profile "Name=$instance_profile"); fi
  local dry="" i ids id
  for ((i = 1; i <= $2; i++)); do dry+="i-dryrun-$1-$i "; done
  ids=$(DRY_ANSWER=${dry% } aws_call "${args[@]}")
  for id in $ids; do
    record instance "$id" "$1"
  done
  [ -n "$ids" ] || die 1 "run-instances returned no instance ids for the $1"
  echo "$ids"
}

up() {
  check_up_inputs
  check_vcpu_quota
  aws_call s3 mb "s3://$(bucket)" >&2
  record bucket "$(bucket)"
  aws_call s3api put-bucket-tagging --bucket "$(bucket)" \
    --tagging "TagSet=[{Key=eccache-run,Value=$run_id}]"
  if ! $dry_run; then
    tar czf "$out_dir/eccache-bench.tar.gz" -C "$build_root/benchmarks/target" classes lib
  fi
  local jar name
  while read -r jar; do
    name=$(basename "$jar" | sed 's/-0\.1\.0-SNAPSHOT//')
    aws_call s3 cp "$jar" "s3://$(bucket)/eccache/$name" >&2
  done < <(artifacts)
  aws_call s3 cp "$out_dir/eccache-bench.tar.gz" "s3://$(bucket)/eccache/eccache-bench.tar.gz" >&2
  sg=$(DRY_ANSWER=sg-dryrun aws_call ec2 create-security-group --group-name "$run_id" \
    --description "eccache run $run_id" --tag-specifications \
    "ResourceType=security-group,Tags=[{Key=eccache-run,Value=$run_id}]" \
    --query GroupId --output text)
  [ -n "$sg" ] || die 1 "create-security-group returned no group id"
  record security-group "$sg"
  # The cluster talks to itself; nothing else gets in (SSM needs no inbound port).
  aws_call ec2 authorize-security-group-ingress --group-id "$sg" --protocol -1 \
    --source-group "$sg" >/dev/null
  if [ -n "$ssh_cidr" ]; then
    aws_call ec2 authorize-security-group-ingress --group-id "$sg" --protocol tcp --port 22 \
      --cidr "$ssh_cidr" >/dev/null
  fi
  local master
  # The master learns its own address at boot (the user data sets it).
  master=$(launch master 1 "$master_type" "$(render_role master this-instance)")
  aws_call ec2 wait instance-running --instance-ids "$master"
  master_ip=$(DRY_ANSWER=10.0.0.10 aws_call ec2 describe-instances --instance-ids "$master" \
    --query 'Reservations[0].Instances[0].PrivateIpAddress' --output text)
  [[ $master_ip =~ ^[0-9.]+$ ]] || die 1 "no private address for the master $master: '$master_ip'"
  echo "$master_ip" > "$out_dir/master-ip"
  launch worker "$workers" "$instance_type" "$(render_role worker "$master_ip")" >/dev/null
  launch client "$clients" "$instance_type" "$(render_role client "$master_ip")" >/dev/null
  # shellcheck disable=SC2046 # one argument per instance id
  wait_ssm_online $(recorded instance)
  # cloud-init runs the user data: Alluxio installed and checked, the role's process serving.
  # shellcheck disable=SC2046
  run_and_wait "cloud-init finished" "$ready_timeout" "cloud-init status --wait" \
    $(recorded instance)
  echo "run $run_id is up: master $master_ip, $workers workers, $clients clients" >&2
}

# --- Waiting, bounded ------------------------------------------------------------------------
wait_ssm_online() { # instance ids: each registered with SSM (PingStatus Online)
  local deadline=$((SECONDS + ssm_timeout)) id status
  for id in "$@"; do
    while :; do
      status=$(DRY_ANSWER=Online aws_call ssm describe-instance-information \
        --filters "Key=InstanceIds,Values=$id" \
        --query 'InstanceInformationList[0].PingStatus' --output text)
      [ "$status" = Online ] && break
      if [ "$SECONDS" -ge "$deadline" ]; then
        die 1 "instance $id did not register with SSM within ${ssm_timeout}s (status" \
          "'$status'): check that its instance profile has AmazonSSMManagedInstanceCore and that" \
          "it can reach the SSM endpoints"
      fi
      sleep "$poll_seconds"
    done
  done
  echo "all $# instances registered with SSM" >&2
}

# Sends a shell command to the instances (SSM takes at most 50 per call) and polls every
# instance's invocation until it ends; fails unless every one ended in Success.
run_and_wait() { # what timeout command instance-ids...
  local what=$1 timeout=$2 command=$3
  shift 3
  local ids=("$@") pairs=() i batch command_id deadline
  for ((i = 0; i < ${#ids[@]}; i += 50)); do
    batch=("${ids[@]:i:50}")
    command_id=$(DRY_ANSWER=dryrun-command aws_call ssm send-command \
      --document-name AWS-RunShellScript --instance-ids "${batch[@]}" \
      --comment "eccache $run_id: $what" --parameters "commands=[\"$command\"]" \
      --timeout-seconds "$timeout" --query Command.CommandId --output text)
    [ -n "$command_id" ] || die 1 "send-command returned no command id ($what)"
    for id in "${batch[@]}"; do pairs+=("$command_id $id"); done
  done
  deadline=$((SECONDS + timeout + wait_margin))
  local pair status err="$out_dir/ssm-error" failed=()
  for pair in "${pairs[@]}"; do
    read -r command_id id <<<"$pair"
    while :; do
      if ! status=$(DRY_ANSWER=Success aws_call ssm get-command-invocation \
        --command-id "$command_id" --instance-id "$id" --query Status --output text 2>"$err"); then
        # Just after send-command the invocation may not exist yet; anything else is an error.
        if ! grep -q InvocationDoesNotExist "$err"; then
          cat "$err" >&2
          die 1 "cannot read the result of '$what' on $id (command $command_id)"
        fi
        status=Pending
      fi
      case $status in
        Success) break ;;
        Pending | InProgress | Delayed) ;;
        *)
          failed+=("$id: $status")
          break
          ;;
      esac
      if [ "$SECONDS" -ge "$deadline" ]; then
        die 1 "'$what' did not end on $id within ${timeout}s (command $command_id, status" \
          "$status)"
      fi
      sleep "$poll_seconds"
    done
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    die 1 "'$what' failed on ${#failed[@]} of ${#pairs[@]} instances (${failed[*]}); its output:" \
      "aws ssm get-command-invocation --command-id <id> --instance-id <instance>"
  fi
  echo "$what: Success on all ${#pairs[@]} instances" >&2
}

bench() {
  local master_ip command clients_ids
  clients_ids=$(recorded instance client)
  [ -n "$clients_ids" ] || die 2 "no clients recorded for run $run_id in $(state_file)"
  master_ip=$(cat "$out_dir/master-ip")
  # Every client runs the benchmark's readers in 8 JVMs against the shared cluster, then uploads
  # its results under its own name.
  command="cd /opt/eccache && java -Xmx8g -cp 'classes:lib/*' io.eccache.benchmarks.cli.EcCacheBench bench"
  command+=" --master $master_ip:19998 --profile $profile --client-jvms 8 --out results"
  command+=" --scenario skew --scenario size --scenario k --scenario delta --scenario writes"
  command+=" && aws s3 cp --recursive results s3://$(bucket)/results/\$(hostname)/"
  # shellcheck disable=SC2086 # one argument per instance id
  run_and_wait benchmark "$bench_timeout" "$command" $clients_ids
}

collect() {
  local dest="$build_root/benchmarks/results/ec2/$run_id"
  $dry_run || mkdir -p "$dest"
  aws_call s3 cp --recursive "s3://$(bucket)/results/" "$dest/" >/dev/null
  echo "results of $run_id in $dest" >&2
}

# --- Teardown --------------------------------------------------------------------------------
# Removes what the state file lists, plus instances and security groups tagged with the run (one
# launched while its id was lost). Goes on past a failed step and fails at the end, naming what
# may be left.
teardown() {
  local failed=() ids tagged id sg b
  ids=$(recorded instance)
  if tagged=$(DRY_ANSWER="" aws_call ec2 describe-instances \
    --filters "Name=tag:eccache-run,Values=$run_id" \
    "Name=instance-state-name,Values=pending,running,stopping,stopped" \
    --query 'Reservations[].Instances[].InstanceId' --output text); then
    for id in $tagged; do
      grep -qx -- "$id" <<<"$ids" || ids+=$'\n'"$id"
    done
  else
    failed+=("looking up instances tagged eccache-run=$run_id")
  fi
  ids=$(echo "$ids" | sed '/^$/d' | tr '\n' ' ')
  if [ -n "$ids" ]; then
    # shellcheck disable=SC2086 # one argument per instance id
    if aws_call ec2 terminate-instances --instance-ids $ids >/dev/null; then
      # A security group in use cannot be deleted: wait for the instances to go.
      # shellcheck disable=SC2086
      aws_call ec2 wait instance-terminated --instance-ids $ids ||
        failed+=("waiting for instances to terminate: $ids")
    else
      failed+=("terminating instances $ids")
    fi
  fi
  local groups
  groups=$(recorded security-group)
  if tagged=$(DRY_ANSWER="" aws_call ec2 describe-security-groups \
    --filters "Name=tag:eccache-run,Values=$run_id" --query 'SecurityGroups[].GroupId' \
    --output text); then
    for sg in $tagged; do
      grep -qx -- "$sg" <<<"$groups" || groups+=$'\n'"$sg"
    done
  else
    failed+=("looking up security groups tagged eccache-run=$run_id")
  fi
  for sg in $groups; do
    aws_call ec2 delete-security-group --group-id "$sg" || failed+=("deleting security group $sg")
  done
  for b in $(recorded bucket); do
    aws_call s3 rb "s3://$b" --force >&2 || failed+=("deleting bucket $b")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "eccache-ec2: teardown of $run_id is INCOMPLETE, resources may still be billing:" >&2
    printf '  - %s\n' "${failed[@]}" >&2
    echo "  run '$0 down --run-id $run_id --out $out_dir' again, and check the EC2 and S3" \
      "consoles for the tag eccache-run=$run_id" >&2
    return 1
  fi
  # Done: a later `down` finds nothing to remove.
  if [ -f "$(state_file)" ]; then
    mv "$(state_file)" "$(state_file).torn-down"
  fi
  echo "run $run_id is torn down" >&2
}

down() {
  # Without a state file (another machine), the bucket is found by its name and tag.
  local lookup=ok
  if [ -z "$(recorded bucket)" ]; then
    local tag err="$out_dir/s3-error"
    if tag=$(DRY_ANSWER="$run_id" aws_call s3api get-bucket-tagging --bucket "$(bucket)" \
      --query "TagSet[?Key=='eccache-run'].Value" --output text 2>"$err"); then
      if [ "$tag" = "$run_id" ]; then
        record bucket "$(bucket)"
      fi
    elif ! grep -q NoSuchBucket "$err"; then
      cat "$err" >&2
      lookup=failed
    fi
  fi
  teardown
  if [ "$lookup" != ok ]; then
    die 1 "could not tell whether the bucket $(bucket) exists (above): check the S3 console"
  fi
}

# Runs on every exit of `all`, and of `up` when it failed: tears down what the state file lists.
on_exit() {
  local status=$?
  trap - EXIT
  if [ "$status" -ne 0 ] || [ "$cmd" = all ]; then
    if [ -s "$(state_file)" ]; then
      if [ "$status" -ne 0 ]; then
        echo "eccache-ec2: $cmd failed (status $status): tearing down $run_id" >&2
      fi
      if ! teardown && [ "$status" -eq 0 ]; then
        status=1
      fi
    fi
  fi
  exit "$status"
}

main() {
  if [ $# -lt 1 ]; then
    usage
    exit 2
  fi
  cmd=$1
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
      --ssh-cidr) ssh_cidr=$2; shift ;;
      --alluxio-sha512) alluxio_sha512=$2; shift ;;
      --alluxio-url) alluxio_url=$2; shift ;;
      --hours) hours=$2; shift ;;
      --profile) profile=$2; shift ;;
      --out) out_dir=$2; shift ;;
      -h|--help) usage; exit 0 ;;
      *) echo "unknown option $1" >&2; usage; exit 2 ;;
    esac
    shift
  done
  [[ $workers =~ ^[1-9][0-9]*$ && $clients =~ ^[1-9][0-9]*$ ]] ||
    die 2 "--workers and --clients take a positive number"
  [[ $run_id =~ ^[a-z0-9][a-z0-9-]{2,62}$ ]] ||
    die 2 "--run-id '$run_id' is not a valid bucket name (lower-case letters, digits, '-')"
  if [ -n "$ssh_cidr" ]; then
    [[ $ssh_cidr =~ ^([0-9]{1,3}\.){3}[0-9]{1,3}/([0-9]|[12][0-9]|3[0-2])$ ]] ||
      die 2 "--ssh-cidr '$ssh_cidr' is not an IPv4 range such as 203.0.113.7/32"
    [[ $ssh_cidr != */0 ]] || die 2 "--ssh-cidr $ssh_cidr would open SSH to the whole internet"
  fi
  if [ -z "$out_dir" ]; then
    out_dir="${ECCACHE_EC2_HOME:-$HOME/.eccache-ec2}/$run_id"
  fi
  if [ "$cmd" != cost ]; then
    mkdir -p "$out_dir"
  fi
  if ! $dry_run && [ "$cmd" != cost ] && ! command -v aws >/dev/null; then
    echo "the AWS CLI is not installed (https://aws.amazon.com/cli/); --dry-run works without" >&2
    exit 1
  fi
  $dry_run && echo "DRY RUN: printing AWS calls, changing nothing" >&2
  # Ctrl-C and kill end the script through exit, so the EXIT trap tears down.
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  case $cmd in
    cost) cost ;;
    up)
      cost
      trap on_exit EXIT
      up
      ;;
    bench) bench ;;
    collect) collect ;;
    down) down ;;
    all)
      cost
      trap on_exit EXIT
      up
      bench
      collect
      ;;
    *) usage; exit 2 ;;
  esac
}

main "$@"
