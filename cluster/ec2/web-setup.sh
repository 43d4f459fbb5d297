#!/usr/bin/env bash
# A LiftRide web instance in one step: Java 17, Tomcat 9 under systemd (unit tomcat, Restart=on-failure), the WAR,
# and nginx on port 80 in front of Tomcat's API connector on 127.0.0.1:8080. Amazon Linux 2023 (dnf) and
# Ubuntu 24.04 or Debian 12 (apt-get). Run as root: paste it as EC2 user data, or `sudo FILES=... ./web-setup.sh`.
# Settings, as environment variables (in user data: assignments at the top of the script):
#   FILES           where liftride.war, liftride-tomcat-valve.jar, server.xml and setenv.sh are: a directory, an
#                   https:// URL prefix or an s3:// prefix (needs the aws CLI and an instance role that reads it);
#                   default: this script's directory. User data cannot build the WAR: see docs/deploying.md.
#   TOMCAT_VERSION  the Tomcat 9.0.x to download from archive.apache.org (checked against its .sha512)
#   TOMCAT_TARBALL  an apache-tomcat-9.0.x.tar.gz on this machine instead of the download
#   STORE           the ride store, e.g. rediss://liftride@10.0.1.5:6379 (default: in memory)
#   STORE_PASSWORD  the store user's password (LIFTRIDE_REDIS_PASSWORD in setenv.sh, which only tomcat reads)
#   STORE_CA        the Redis CA certificate (a file, or a URL or s3:// object): the JVM trusts it
#   DRAIN_GRACE_MS  behind a load balancer: how long a stopping server stays up not ready (12000 for the ALB)
#   READY_SECONDS   how long to wait for /health/ready through nginx (default 180)
#   SETUP_ROOT      for tests: a directory that stands for / (files go under it; commands run as they are)
set -euo pipefail

FILES=${FILES:-$(cd "$(dirname "$0")" && pwd)}
TOMCAT_VERSION=${TOMCAT_VERSION:-9.0.117} # the build's tomcat-distribution.version (pom.xml)
TOMCAT_TARBALL=${TOMCAT_TARBALL:-}
STORE=${STORE:-}
STORE_PASSWORD=${STORE_PASSWORD:-}
STORE_CA=${STORE_CA:-}
DRAIN_GRACE_MS=${DRAIN_GRACE_MS:-}
READY_SECONDS=${READY_SECONDS:-180}
R=${SETUP_ROOT:-}
TOMCAT=/opt/tomcat

say() { echo "web-setup: $*"; }
die() { echo "web-setup: $*" >&2; exit 1; }

# fetch SOURCE DEST: a local file, an http(s) URL or an s3:// object
fetch() {
    case $1 in
        http://* | https://*) curl -fsSL --retry 3 -o "$2" "$1" ;;
        s3://*) aws s3 cp --only-show-errors "$1" "$2" ;;
        *) cp "$1" "$2" ;;
    esac || die "cannot fetch $1"
}

[ "$(id -u)" = 0 ] || die "run it as root (sudo)"
# shellcheck source=/dev/null
. "$R/etc/os-release"
case " ${ID:-} ${ID_LIKE:-} " in
    *" amzn "* | *" fedora "* | *" rhel "*)
        family=dnf
        dnf install -y java-17-amazon-corretto-headless nginx tar gzip shadow-utils
        nginx_user=nginx ;;
    *" ubuntu "* | *" debian "*)
        family=apt
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless nginx curl ca-certificates
        nginx_user=www-data ;;
    *) die "unsupported system '${ID:-unknown}': Amazon Linux 2023, Ubuntu 24.04 or Debian 12" ;;
esac
say "installed Java 17 and nginx with $family"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$TOMCAT_TARBALL" ]; then
    cp "$TOMCAT_TARBALL" "$work/tomcat.tar.gz"
else
    url=https://archive.apache.org/dist/tomcat/tomcat-9/v$TOMCAT_VERSION/bin/apache-tomcat-$TOMCAT_VERSION.tar.gz
    fetch "$url" "$work/tomcat.tar.gz"
    fetch "$url.sha512" "$work/tomcat.sha512"
    [ "$(cut -d' ' -f1 < "$work/tomcat.sha512")" = "$(sha512sum < "$work/tomcat.tar.gz" | cut -d' ' -f1)" ] \
        || die "$url does not match its .sha512"
fi
for f in liftride.war liftride-tomcat-valve.jar server.xml setenv.sh; do
    fetch "${FILES%/}/$f" "$work/$f"
done

id -u tomcat > /dev/null 2>&1 || useradd --system --home-dir "$TOMCAT" --shell /sbin/nologin tomcat
rm -rf "$R$TOMCAT" && mkdir -p "$R$TOMCAT"
tar -xzf "$work/tomcat.tar.gz" -C "$R$TOMCAT" --strip-components=1
# no default webapps: the manager and its weak password are the classic way in
rm -rf "$R$TOMCAT"/webapps/*
cp "$work/liftride.war" "$R$TOMCAT/webapps/"
cp "$work/liftride-tomcat-valve.jar" "$R$TOMCAT/lib/"
cp "$work/server.xml" "$R$TOMCAT/conf/"
# the shipped setenv.sh (-XX:+ExitOnOutOfMemoryError, which the unit's restart relies on), then this instance's lines
cp "$work/setenv.sh" "$R$TOMCAT/bin/setenv.sh"
{
    echo "# web-setup.sh: Tomcat's API connector on the loopback only (nginx is the public port)"
    echo "CATALINA_OPTS=\"\$CATALINA_OPTS -Dliftride.http.address=127.0.0.1\""
    [ -z "$STORE" ] || echo "CATALINA_OPTS=\"\$CATALINA_OPTS -Dliftride.store=$STORE\""
    [ -z "$STORE_PASSWORD" ] || echo "export LIFTRIDE_REDIS_PASSWORD='$STORE_PASSWORD'"
    [ -z "$DRAIN_GRACE_MS" ] \
        || echo "CATALINA_OPTS=\"\$CATALINA_OPTS -Dliftride.drain.graceMillis=$DRAIN_GRACE_MS -Dliftride.drain.maxMillis=40000\""
    [ -z "$STORE_CA" ] || echo "CATALINA_OPTS=\"\$CATALINA_OPTS -Djavax.net.ssl.trustStore=$TOMCAT/conf/truststore -Djavax.net.ssl.trustStorePassword=changeit\""
} >> "$R$TOMCAT/bin/setenv.sh"
grep -q -- '-XX:+ExitOnOutOfMemoryError' "$R$TOMCAT/bin/setenv.sh" || die "setenv.sh lacks -XX:+ExitOnOutOfMemoryError"
if [ -n "$STORE_CA" ]; then
    # the JVM's own CAs plus the Redis CA, in a copy: a JDK update never drops it
    fetch "$STORE_CA" "$work/redis-ca.crt"
    cacerts=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/security/cacerts
    cp "$cacerts" "$R$TOMCAT/conf/truststore"
    keytool -importcert -noprompt -alias liftride-redis-ca -file "$work/redis-ca.crt" \
        -keystore "$R$TOMCAT/conf/truststore" -storepass changeit > /dev/null 2>&1 || die "keytool cannot import $STORE_CA"
fi
chown -R root:tomcat "$R$TOMCAT"
chmod -R g+rX,o-rwx "$R$TOMCAT"
chmod 640 "$R$TOMCAT/bin/setenv.sh"
chown -R tomcat:tomcat "$R$TOMCAT/logs" "$R$TOMCAT/temp" "$R$TOMCAT/work" "$R$TOMCAT/webapps"

mkdir -p "$R/etc/systemd/system"
cat > "$R/etc/systemd/system/tomcat.service" << UNIT
[Unit]
Description=LiftRide on Tomcat 9
After=network-online.target
Wants=network-online.target

[Service]
User=tomcat
Group=tomcat
Environment=CATALINA_HOME=$TOMCAT CATALINA_BASE=$TOMCAT
ExecStart=$TOMCAT/bin/catalina.sh run
# exit 3 after an OutOfMemoryError (setenv.sh): start again; SIGTERM (stop) drains and exits 143
Restart=on-failure
RestartSec=5
SuccessExitStatus=143
TimeoutStopSec=60
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
UNIT

# the whole nginx.conf: the same file on both systems (no sites-enabled, no stock server on port 80)
cp -n "$R/etc/nginx/nginx.conf" "$R/etc/nginx/nginx.conf.orig" 2> /dev/null || true
mkdir -p "$R/etc/nginx/conf.d"
cat > "$R/etc/nginx/nginx.conf" << NGINX
user $nginx_user;
worker_processes auto;
worker_rlimit_nofile 16384;
pid /run/nginx.pid;
error_log /var/log/nginx/error.log;
events {
    worker_connections 8192;       # room for thousands of waiting clients
    multi_accept on;               # a new client never queues behind hundreds reconnecting
}
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    server_tokens off;
    include /etc/nginx/conf.d/*.conf;
}
NGINX
cat > "$R/etc/nginx/conf.d/liftride.conf" << 'NGINX'
upstream tomcat {
    server 127.0.0.1:8080;         # Tomcat's API connector; operations stay on 127.0.0.1:8081
    keepalive 64;                  # idle connections to Tomcat, reused
    keepalive_timeout 50s;         # closed before Tomcat's keepAliveTimeout of 60 s would
}
server {
    # a client that never reads gets only the answers its 8 KB send buffer holds
    listen 80 default_server backlog=1024 sndbuf=4096 rcvbuf=16384;
    keepalive_requests 1000000;    # a load client keeps its connections for the whole run
    keepalive_timeout 75s;         # above the ALB's idle timeout of 60 s
    client_header_timeout 10s;     # slow clients stop here: 408 after 10 s between two reads
    client_body_timeout 10s;
    send_timeout 10s;
    reset_timedout_connection on;
    client_max_body_size 4096;     # the API's largest body; larger ones never reach Tomcat
    client_body_buffer_size 4096;
    proxy_request_buffering on;    # read the whole body before opening a connection to Tomcat
    proxy_buffering on;
    location / {
        proxy_pass http://tomcat;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_connect_timeout 2s;
        proxy_read_timeout 15s;
    }
}
NGINX
nginx -t -q
say "wrote /etc/systemd/system/tomcat.service and /etc/nginx/nginx.conf"

systemctl daemon-reload
systemctl enable tomcat
systemctl restart tomcat
systemctl enable --now nginx
systemctl reload nginx

say "waiting up to ${READY_SECONDS} s for http://127.0.0.1/liftride/health/ready through nginx"
ready=
for _ in $(seq 1 "$READY_SECONDS"); do
    if ready=$(curl -fsS --max-time 2 http://127.0.0.1/liftride/health/ready 2> /dev/null); then
        break
    fi
    ready=
    sleep 1
done
[ -n "$ready" ] || die "not ready after ${READY_SECONDS} s: see journalctl -u tomcat and /var/log/nginx/error.log"
say "ready: $ready"
cat << NEXT
web-setup: next, from your machine (JDK 17, in the repository, after mvn -B -q -DskipTests package):
  java -jar client-part2/target/client-part2.jar -t 32,64,128,256 -s 20000 -l 40 -m 10 --baseline 200 \\
       -i http://PUBLIC-DNS-OF-THIS-INSTANCE/liftride --out data/runs/ec2-single
  (behind a load balancer: register this instance in its target group and use the ALB's DNS name)
NEXT
