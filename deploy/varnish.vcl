# Varnish (Debian's varnish 7.1 with varnish-modules' xkey) between nginx and the node
# processes: nginx keeps TLS and the static files, Varnish keeps the shared answers and drops
# them by key when content changes (docs/edge.md).
#
#   client --TLS--> nginx --> varnish --> node-1, node-2…
#
# The node processes are in guide-backends.vcl, looked up on vcl_path: scripts/stack.ts writes
# it into its run directory (`npm run stack -- --edge varnish`); on a server, write it once:
#
#   backend node_1 { .host = "127.0.0.1"; .port = "3001"; .probe = guide_health; }
#   sub vcl_init { new guide_nodes = directors.round_robin(); guide_nodes.add_backend(node_1); }
#
# and start `varnishd -a 127.0.0.1:6081 -f /etc/varnish/varnish.vcl -p vcl_path=/etc/varnish`.
#
# What it keeps: only what the app marks shared (Cache-Control: public, for max-age or
# s-maxage), never an answer that sets a cookie, never for a request with a cookie the app
# treats as personal (anything but the age gate's is_user_over_18, which the app's
# `Vary: Cookie` keeps apart). What it drops: the answers whose Surrogate-Key names a key of a
# change, when a node process sends `PURGE` with `xkey-purge: <keys>` (server/http/edge-purge.ts,
# EDGE_PURGE_URL), from this machine only.

vcl 4.1;

import directors;
import std;
import xkey;

probe guide_health {
  .url = "/healthz";
  .interval = 2s;
  .timeout = 1s;
  .window = 3;
  .threshold = 2;
  .initial = 2;
}

include "guide-backends.vcl";

# Who may purge: the node processes, on this machine.
acl guide_purgers {
  "127.0.0.1";
  "::1";
}

# A websocket's upgrade goes to the backend with its Upgrade and Connection headers (the
# built-in vcl_pipe sends "Connection: close").
sub vcl_pipe {
  if (req.http.Upgrade) {
    set bereq.http.Upgrade = req.http.Upgrade;
    set bereq.http.Connection = req.http.Connection;
  }
}

sub vcl_recv {
  set req.backend_hint = guide_nodes.backend();

  if (req.method == "PURGE") {
    # From this machine, and not through nginx (which sets X-Forwarded-Proto on all it passes).
    if (client.ip !~ guide_purgers || req.http.X-Forwarded-Proto) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.xkey-purge) {
      return (synth(400, "xkey-purge header required"));
    }
    set req.http.n-gone = xkey.purge(req.http.xkey-purge);
    return (synth(200, "Purged " + req.http.n-gone));
  }

  # Live co-editing's websocket: piped to a node process as it is (never cached).
  if (req.http.Upgrade ~ "(?i)^websocket$") {
    return (pipe);
  }

  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  if (req.http.Authorization) {
    return (pass);
  }
  # A cookie other than the age gate's: a member, a form's csrftoken, anything unknown: past the cache.
  if (req.http.Cookie) {
    set req.http.X-Guide-Other-Cookies = regsuball(req.http.Cookie, "(^|;)\s*is_user_over_18\s*=[^;]*", "");
    if (req.http.X-Guide-Other-Cookies ~ "[^;\s]") {
      unset req.http.X-Guide-Other-Cookies;
      return (pass);
    }
    unset req.http.X-Guide-Other-Cookies;
  }
  # Past the built-in vcl_recv, which would pass any request with a Cookie header.
  return (hash);
}

sub vcl_backend_response {
  # Only what the app marks shared; an answer without a Cache-Control is not kept either.
  if (beresp.http.Set-Cookie || beresp.http.Cache-Control !~ "(?i)(^|,)\s*(public|s-maxage)") {
    set beresp.uncacheable = true;
    set beresp.ttl = 120s;
    return (deliver);
  }
  # xkey reads its keys from the xkey header: the app names them in Surrogate-Key.
  if (beresp.http.Surrogate-Key) {
    set beresp.http.xkey = beresp.http.Surrogate-Key;
  }
  # How long to keep it here, when the app says (Surrogate-Control: max-age=N, for the edge only;
  # browsers keep it as Cache-Control says): an answer that names what it shows is purged by key
  # when that changes, so the app lets the edge keep it 10 minutes (http/surrogate-keys.ts).
  if (beresp.http.Surrogate-Control ~ "(^|,)\s*max-age=[0-9]+") {
    set beresp.ttl = std.duration(regsub(beresp.http.Surrogate-Control, "^.*max-age=([0-9]+).*$", "\1") + "s", beresp.ttl);
  }
  unset beresp.http.Surrogate-Control;
  # Hard purges (xkey.purge) drop a key's answers at once; grace only covers an answer that
  # expired by age, served while Varnish fetches it again.
  set beresp.grace = 10s;
}

sub vcl_deliver {
  unset resp.http.xkey;
  if (obj.uncacheable) {
    set resp.http.X-Cache = "PASS";
  } else if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
}

sub vcl_synth {
  # A PURGE's count, for the log and for tests.
  if (req.method == "PURGE") {
    set resp.http.X-Purged = req.http.n-gone;
  }
}
