#!/bin/sh
# What cdk.json runs for `npx cdk synth|deploy`. First the deployment options are checked from the context the CDK CLI
# passes (CDK_CONTEXT_JSON), with the classes of the last build, when they are current: a bad value is one line within
# a second instead of after the Maven build and jsii. Then the reactor builds the function jars and runs the app
# (InterlockApp checks the context again before the CDK starts, so a first build with a bad value also fails in one line).
#   ./cdk-app.sh --check-context    only the first step (exit 1 on a bad value; it needs one earlier build)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
. "$ROOT/.mvn/jdk.sh"

CLASSPATH_FILE="$HERE/target/context-check.classpath"
CHECK_CLASS="$HERE/target/classes/dev/interlock/infra/ContextCheck.class"
if [ -f "$CLASSPATH_FILE" ] && [ -f "$CHECK_CLASS" ] && [ -z "$(find "$HERE/src/main" "$ROOT/shared-model/src/main" \
    -newer "$CHECK_CLASS" -name '*.java' 2>/dev/null | head -n 1)" ]; then
  "$JAVA_HOME/bin/java" -cp "$HERE/target/classes:$(cat "$CLASSPATH_FILE")" dev.interlock.infra.ContextCheck
  if [ "${1-}" = --check-context ]; then exit 0; fi
elif [ "${1-}" = --check-context ]; then
  echo "Interlock CDK app: no current build to check the context with; run ../mvnw -pl infra-cdk -am compile first" >&2
  exit 2
fi
exec "$ROOT/mvnw" -B -q -ntp -f "$ROOT/pom.xml" -pl infra-cdk -am package -DskipTests -Psynth
