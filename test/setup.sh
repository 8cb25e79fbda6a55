#!/usr/bin/env bash
# Installs what the test suite needs beyond node_modules: Chromium (page tests), tmux (terminal UI
# test), nginx (forward-auth behind a real proxy) and Apache with mod_auth_openidc (a real OpenID Connect
# relying party in front of a page) from Debian's packages, when they are missing. Safe to run repeatedly.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
# Debian puts nginx in /usr/sbin, which is not on every user's PATH.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v apache2 >/dev/null 2>&1 || [ -x /usr/sbin/apache2 ] || missing+=(apache2)
[ -f /usr/lib/apache2/modules/mod_auth_openidc.so ] || missing+=(libapache2-mod-auth-openidc)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "test setup: installing ${missing[*]} from Debian packages" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "test setup: ${missing[*]} missing and cannot be installed here (not root or no apt-get); those tests will fail" >&2
  fi
fi
