# bin/setenv.sh for a standalone Tomcat 9 serving liftride.war (catalina.sh sources it; mode 600 if it
# holds LIFTRIDE_REDIS_PASSWORD).
# A JVM that has thrown OutOfMemoryError may have lost the threads that accept or answer requests and
# then keeps its port open answering nothing: it exits instead (code 3), so that systemd
# (Restart=on-failure) or the operator restarts it.
CATALINA_OPTS="$CATALINA_OPTS -XX:+ExitOnOutOfMemoryError"
# On a host with one CPU, 4 request threads, as the embedded launcher runs on a JVM that sees one CPU
# (docs/server.md, "Connector settings"); server.xml reads these properties, 256 and 32 without them.
if [ "$(nproc 2>/dev/null)" = 1 ]; then
  CATALINA_OPTS="$CATALINA_OPTS -Dliftride.http.maxThreads=4 -Dliftride.http.minSpareThreads=4"
fi
