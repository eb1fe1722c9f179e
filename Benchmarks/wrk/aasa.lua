-- wrk script for Benchmarks/run.sh.
--
-- Environment:
--   BENCH_HOST     the Host header of every request (one-host loads)
--   BENCH_ROTATE   N > 0: rotate Host over d0001.bench.example … dNNNN, one per request
--   BENCH_WIDTH    digits in the host names (default 4)
-- Prints one line `WRK_JSON {...}` at the end: requests, duration, errors,
-- non-2xx/3xx count and latency percentiles in microseconds.

local path = "/.well-known/apple-app-site-association"
local rotate = tonumber(os.getenv("BENCH_ROTATE") or "0") or 0
local width = tonumber(os.getenv("BENCH_WIDTH") or "4") or 4
local fixed_host = os.getenv("BENCH_HOST") or "d0001.bench.example"

local function host_name(i)
   return string.format("d%0" .. width .. "d.bench.example", i)
end

-- What Apple's CDN fetcher sends, more or less.
wrk.method = "GET"
wrk.path = path
wrk.headers["Host"] = fixed_host
wrk.headers["User-Agent"] = "AASA-Bot/1.0.0"
wrk.headers["Accept"] = "*/*"

if rotate > 0 then
   local requests = {}
   local next_index = 0

   function init(args)
      -- Pre-format one request per host; each thread starts at its own offset.
      for i = 1, rotate do
         wrk.headers["Host"] = host_name(i)
         requests[i] = wrk.format("GET", path)
      end
      next_index = math.random(rotate) - 1
   end

   function request()
      next_index = next_index % rotate + 1
      return requests[next_index]
   end
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,'
         .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
         .. '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f}}\n',
      summary.requests, summary.duration, summary.bytes,
      e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99),
      latency:percentile(99.9), latency.max, latency.mean))
end
