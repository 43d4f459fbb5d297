#!/usr/bin/env bash
# LiftRide's Redis instance in one step, on Ubuntu 24.04 or Debian 12 (Redis 7.0: the store needs Redis functions;
# Amazon Linux 2023's redis6 is too old): Debian's redis-server under its own systemd unit, with the shipped
# redis.conf, TLS only (a CA and a server certificate naming this instance's address), the ACL user liftride kept in
# an aclfile, the default user disabled and the append-only file in /var/lib/redis. As root (user data or sudo).
# Settings, as environment variables:
#   FILES           where the shipped redis.conf is: a directory, an https:// URL prefix or an s3:// prefix
#                   (default: this script's directory)
#   ADDRESS         the address the web instances use (default: this instance's first address, hostname -I)
#   STORE_PASSWORD  the liftride user's password (default: a random one, printed once)
#   MAXMEMORY_MB    Redis's memory limit (default: 75% of this instance's RAM)
#   SETUP_ROOT      for tests: a directory that stands for / (files go under it; commands run as they are)
set -euo pipefail

FILES=${FILES:-$(cd "$(dirname "$0")" && pwd)}
ADDRESS=${ADDRESS:-$(hostname -I | awk '{print $1}')}
STORE_PASSWORD=${STORE_PASSWORD:-}
R=${SETUP_ROOT:-}
CONF=/etc/redis
TLS=$CONF/tls

say() { echo "redis-setup: $*"; }
die() { echo "redis-setup: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run it as root (sudo)"
[ -n "$ADDRESS" ] || die "no address: set ADDRESS to this instance's private address"
command -v apt-get > /dev/null || die "needs apt-get (Ubuntu 24.04 or Debian 12): Redis 7.0 or newer"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends redis-server redis-tools openssl curl ca-certificates
say "installed $(redis-server --version | cut -d' ' -f1-3)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $FILES in
    http://* | https://*) curl -fsSL --retry 3 -o "$work/redis.conf" "${FILES%/}/redis.conf" ;;
    s3://*) aws s3 cp --only-show-errors "${FILES%/}/redis.conf" "$work/redis.conf" ;;
    *) cp "${FILES%/}/redis.conf" "$work/redis.conf" ;;
esac || die "cannot fetch redis.conf from $FILES"

# a CA, and a server certificate it signs for this instance's address (an IP SAN, as the JVM checks the name)
mkdir -p "$R$TLS"
if [ ! -s "$R$TLS/ca.crt" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=LiftRide Redis CA" \
        -keyout "$R$TLS/ca.key" -out "$R$TLS/ca.crt" 2> /dev/null
fi
case $ADDRESS in
    *[!0-9.]*) san=DNS:$ADDRESS ;;
    *) san=IP:$ADDRESS ;;
esac
openssl req -newkey rsa:2048 -nodes -subj "/CN=$ADDRESS" -keyout "$R$TLS/redis.key" -out "$work/redis.csr" 2> /dev/null
printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "$san" > "$work/ext"
openssl x509 -req -in "$work/redis.csr" -CA "$R$TLS/ca.crt" -CAkey "$R$TLS/ca.key" -CAcreateserial -days 825 \
    -extfile "$work/ext" -out "$R$TLS/redis.crt" 2> /dev/null
chmod 600 "$R$TLS/ca.key" "$R$TLS/redis.key"

# the liftride user, every command the store sends (docs/server.md#security); the default user off
if [ -z "$STORE_PASSWORD" ]; then
    STORE_PASSWORD=$(openssl rand -hex 24)
    generated=yes
fi
hash=$(printf '%s' "$STORE_PASSWORD" | sha256sum | cut -d' ' -f1)
cat > "$R$CONF/users.acl" << ACL
user default off resetkeys resetchannels nocommands
user liftride on #$hash resetkeys ~lr:* ~{lr:* resetchannels nocommands +fcall +function|load +hsetnx +hset +hscan +hget +hkeys +hexists +hlen +smembers +sadd +sismember +scard +get +time +hincrby +incrby +exists +expire +info +client|setname +config|get
ACL

maxmemory_mb=${MAXMEMORY_MB:-$(awk '/^MemTotal:/ {print int($2 * 0.75 / 1024)}' /proc/meminfo)}
# Debian's redis.conf (its unit's pidfile, logfile and supervision) first, then the shipped file, then this instance
cp -n "$R$CONF/redis.conf" "$R$CONF/redis.conf.orig" 2> /dev/null || true
cp "$work/redis.conf" "$R$CONF/liftride.conf"
cat > "$R$CONF/liftride-instance.conf" << CONFEND
bind $ADDRESS 127.0.0.1
port 0
tls-port 6379
tls-cert-file $TLS/redis.crt
tls-key-file $TLS/redis.key
tls-ca-cert-file $TLS/ca.crt
tls-auth-clients no
aclfile $CONF/users.acl
dir /var/lib/redis
maxmemory ${maxmemory_mb}mb
CONFEND
grep -qx "include $CONF/liftride.conf" "$R$CONF/redis.conf" \
    || printf 'include %s/liftride.conf\ninclude %s/liftride-instance.conf\n' "$CONF" "$CONF" >> "$R$CONF/redis.conf"
chown -R redis:redis "$R$CONF"
chmod 640 "$R$CONF/users.acl"

systemctl enable redis-server
systemctl restart redis-server
say "waiting up to 30 s for Redis on $ADDRESS:6379 (TLS, user liftride)"
for _ in $(seq 1 30); do
    if REDISCLI_AUTH=$STORE_PASSWORD redis-cli --tls --cacert "$R$TLS/ca.crt" -h "$ADDRESS" -p 6379 --user liftride \
        --no-auth-warning info persistence 2> /dev/null | grep -q '^aof_enabled:1'; then
        up=yes
        break
    fi
    sleep 1
done
[ "${up:-}" = yes ] || die "Redis does not answer: see journalctl -u redis-server and /var/log/redis/"
say "ready: TLS on $ADDRESS:6379, append-only file in /var/lib/redis, user liftride, default user off"
[ -z "${generated:-}" ] || say "the liftride user's password (shown once; keep it): $STORE_PASSWORD"
cat << NEXT
redis-setup: next, for each web instance:
  1. copy the CA:   scp $TLS/ca.crt to the web instance (or: aws s3 cp $TLS/ca.crt s3://BUCKET/liftride/redis-ca.crt)
  2. run web-setup.sh there with  STORE=rediss://liftride@$ADDRESS:6379 STORE_PASSWORD=... STORE_CA=PATH-OR-URL-OF-ca.crt
     (it imports the CA with keytool into /opt/tomcat/conf/truststore, a copy of the JVM's trust store); by hand:
     keytool -importcert -noprompt -alias liftride-redis-ca -file ca.crt -keystore truststore -storepass changeit
NEXT
