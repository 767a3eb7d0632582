# Sourced by ./mvnw, ./interlock and .ci/run (POSIX sh): point JAVA_HOME at a JDK >= 21.
# Order: JAVA_HOME if it is >= 21, then the JDKs under /usr/lib/jvm (newest first), then `java` on PATH.
interlock_java_major() {
  # Every JDK names its version in $JAVA_HOME/release; reading it costs no JVM start (./interlock runs this each time).
  if [ -r "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9][0-9]*\).*/\2/p' "$1/release" | head -n 1)
    if [ -n "$v" ]; then echo "$v"; return 0; fi
  fi
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}
interlock_find_jdk() {
  if [ -n "${JAVA_HOME-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    v=$(interlock_java_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then return 0; fi
  fi
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 $(find /usr/lib/jvm -mindepth 1 -maxdepth 1 2>/dev/null | sort -r) /opt/java/openjdk; do
    candidate=${candidate%/}
    [ -x "$candidate/bin/javac" ] || continue
    v=$(interlock_java_major "$candidate")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then JAVA_HOME=$candidate; export JAVA_HOME; return 0; fi
  done
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(interlock_java_major "$candidate")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then JAVA_HOME=$candidate; export JAVA_HOME; return 0; fi
  fi
  echo "Interlock needs a JDK 21 or newer: none found (JAVA_HOME='${JAVA_HOME-}', /usr/lib/jvm, PATH)." >&2
  echo "Install one (e.g. Temurin 21+) and set JAVA_HOME to it." >&2
  return 1
}
interlock_find_jdk || exit 1
