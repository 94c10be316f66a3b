// The baseline of the startup and HTTP figures: a bare node:http server, plain JavaScript run by
// node directly (no tsx), so its startup is Node's own. It does the least a server can do for each
// figure:
//   GET /version  -> a fixed version.Info JSON (startup figure: spawn to first answered /version)
//   GET any other -> a fixed 1 KB JSON object (HTTP GET figure)
//   POST any path -> parses the JSON body, stores it in a Map by metadata.name, answers 201 with
//                    the stored object serialized again (HTTP create figure)
// Usage: node bench/baselines/bare-server.mjs [--port 0] [--host 127.0.0.1]
// Prints `bare server listening on http://HOST:PORT` once it accepts connections; stops on SIGTERM.
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const port = Number(flag('--port', '0'));
const host = flag('--host', '127.0.0.1');

const version = JSON.stringify({ major: '1', minor: '36', gitVersion: 'v1.36.0', compiler: 'bare-node-http' });
// A fixed object of 1,024 bytes of JSON, shaped like a ConfigMap.
const fixed = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fixed', namespace: 'default' }, data: { value: '' } };
fixed.data.value = 'x'.repeat(1024 - JSON.stringify(fixed).length);
const fixedBody = JSON.stringify(fixed);
const store = new Map();

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let obj;
      try {
        obj = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}');
        return;
      }
      store.set(obj?.metadata?.name ?? String(store.size), obj);
      const body = JSON.stringify(obj);
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
    return;
  }
  const body = req.url === '/version' ? version : fixedBody;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
});

server.listen(port, host, () => {
  const address = server.address();
  process.stdout.write(`bare server listening on http://${host}:${address.port}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
