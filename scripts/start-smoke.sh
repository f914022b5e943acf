#!/usr/bin/env bash
# Starts Steady the way the README says (`npm start`, SQLite in ./data) and checks that it answers on :3000.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
npm start >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || kill $pid 2>/dev/null || true; pkill -f "node dist/server/main.js" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  if curl -fsS -o /dev/null http://localhost:3000/ 2>/dev/null; then break; fi
  sleep 0.5
done
status_page=$(curl -s -o /dev/null -w '%{http_code}' http://localhost:3000/)
status_me=$(curl -s -o /dev/null -w '%{http_code}' http://localhost:3000/api/me)
echo "GET / -> $status_page, GET /api/me -> $status_me"
if [ "$status_page" != 200 ] || [ "$status_me" != 401 ]; then
  echo "npm start did not serve as expected; its log:"; cat "$log"; exit 1
fi
grep -q '?invite=' "$log" || { echo "first start did not log an invite URL; its log:"; cat "$log"; exit 1; }
echo "npm start smoke check passed"
