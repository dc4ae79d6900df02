#!/usr/bin/env bash
# The examples of docs/production.md, checked with the tools they are written for (Debian 12's):
# each is taken out of the page itself, by its first line, so the page cannot drift from what passes.
#   - the Caddyfile:        caddy validate
#   - the nginx site:       nginx -t, inside Debian's own nginx.conf, with a throw-away certificate
#   - the systemd unit:     systemd-analyze verify, and systemd-analyze security at 4.0 or lower;
#                           where systemd is PID 1, the release also runs under systemd-run with the
#                           unit's confinement and books a room (elsewhere: offline checks only)
# Installs caddy, nginx and systemd when missing (apt). Runs from the repository, after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
DOC="${1:-docs/production.md}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

missing=()
command -v caddy >/dev/null || missing+=(caddy)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v systemd-analyze >/dev/null || missing+=(systemd)
command -v openssl >/dev/null || missing+=(openssl)
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
PATH="$PATH:/usr/sbin"

# The fenced block of $DOC whose first line is exactly "# $1", printed whole; fails when none is.
example() {
  awk -v want="# $1" '
    /^```/ { if (open) { if (found) exit; open = 0 } else { open = 1; first = 1 }; next }
    open && first { first = 0; if ($0 == want) found = 1 }
    open && found { print }
    END { if (!found) exit 1 }
  ' "$DOC" || { echo "$DOC has no example starting with '# $1'" >&2; return 1; }
}

echo "-- Caddy $(caddy version | cut -d' ' -f1): the Caddyfile"
example /etc/caddy/Caddyfile >"$work/Caddyfile"
HOME="$work" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" \
  caddy validate --adapter caddyfile --config "$work/Caddyfile" 2>"$work/caddy.log" ||
  { cat "$work/caddy.log" >&2; exit 1; }

echo "-- $(nginx -v 2>&1): the site, in Debian's nginx.conf"
# certbot's certificate files do not exist here: the same lines, naming a throw-away pair.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=booking.example.com \
  -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2>/dev/null
example /etc/nginx/sites-available/innkeep |
  sed "s#/etc/letsencrypt/live/booking.example.com/#$work/#" >"$work/innkeep.site"
sed "s#/etc/nginx/sites-enabled/\*#$work/innkeep.site#" /etc/nginx/nginx.conf >"$work/nginx.conf"
grep -q "$work/innkeep.site" "$work/nginx.conf" || { echo "Debian's nginx.conf includes no sites-enabled/*" >&2; exit 1; }
nginx -t -q -e stderr -c "$work/nginx.conf"

echo "-- $(systemd-analyze --version | head -1): the unit"
example '/etc/systemd/system/innkeep@.service' >"$work/innkeep@.service"
# `verify` wants ExecStart's program to exist: the guide names Debian's /usr/bin/node.
node_bin="$(command -v node)"
[ -x /usr/bin/node ] || sed -i "s#^ExecStart=/usr/bin/node #ExecStart=$node_bin #" "$work/innkeep@.service"
SYSTEMD_LOG_LEVEL=warning systemd-analyze verify "$work/innkeep@.service"
systemd-analyze security --offline=true --threshold=40 --no-pager "$work/innkeep@.service" | tail -1

if [ -d /run/systemd/system ]; then
  echo "-- the release under systemd-run, with the unit's confinement"
  # The unit's command, and its [Service] lines but those that name this guide's server (its user,
  # folders and environment file) and what only a long-lived service needs; a user made for the run
  # instead.
  props=()
  while IFS= read -r line; do
    case "$line" in
      '' | '#'* | '['*) ;;
      ExecStart=*) read -r -a start_command <<< "${line#ExecStart=}" ;;
      User=* | Group=* | WorkingDirectory=* | EnvironmentFile=* | Environment=*) ;;
      StateDirectory=* | Restart=* | RestartSec=* | RestartPreventExitStatus=* | Type=*) ;;
      *) props+=(-p "$line") ;;
    esac
  done < <(sed -n '/^\[Service\]/,/^\[/p' "$work/innkeep@.service")
  unit="innkeep-ci-$$"
  port=39$((RANDOM % 900 + 100))
  # The checkout bound read-only where the unit's ProtectHome= cannot hide it (CI runners keep
  # their work under /home).
  systemd-run --unit="$unit" --collect -p DynamicUser=true -p StateDirectory="$unit" \
    -p BindReadOnlyPaths="$PWD:/run/$unit" -p WorkingDirectory="/run/$unit" -E PORT="$port" -E HOST=127.0.0.1 -E DATA_DIR="/var/lib/$unit" \
    -E RATE_LIMIT_PER_MINUTE=0 "${props[@]}" "${start_command[@]}"
  trap 'systemctl stop "$unit" 2>/dev/null || true; rm -rf "$work"' EXIT
  base="http://127.0.0.1:$port"
  for _ in $(seq 1 120); do curl -fsS "$base/readyz" >/dev/null 2>&1 && break; sleep 1; done
  curl -fsS "$base/readyz" >/dev/null || { journalctl -u "$unit" --no-pager | tail -30; exit 1; }
  day() { date -u -d "+$1 days" +%F; }
  quote=$(curl -fsS -H 'content-type: application/json' "$base/api/v1/booking/quote" -d \
    "{\"hotelId\":\"harbour-view\",\"checkIn\":\"$(day 30)\",\"checkOut\":\"$(day 32)\",\"adults\":1,\"roomTypeId\":\"double\",\"ratePlanId\":\"flex\"}")
  quote_id=$(node -e 'console.log(JSON.parse(process.argv[1]).id)' "$quote")
  curl -fsS -o /dev/null -H 'content-type: application/json' "$base/api/v1/booking/reservations" -d \
    "{\"quoteId\":\"$quote_id\",\"guest\":{\"firstName\":\"Ana\",\"lastName\":\"Silva\",\"email\":\"ana@example.com\"}}"
  systemctl stop "$unit"
  echo "booked under the unit's confinement"
else
  echo "-- systemd is not PID 1 here: the unit's confinement checked offline only"
fi
