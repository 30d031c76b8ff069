import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const root = new URL('../packages/', import.meta.url).pathname;
const r = await build({ entryPoints: [root + process.argv[2] + '/src/index.ts'], bundle: true, platform: 'node', format: 'esm', target: 'node20', minify: true, write: false, metafile: true, logLevel: 'silent',
  alias: { '@partner-apis/core': root + 'core/src/index.ts', '@partner-apis/auth': root + 'auth/src/index.ts', '@partner-apis/errors': root + 'errors/src/index.ts' } });
const out = Object.values(r.metafile.outputs)[0];
for (const [k, v] of Object.entries(out.inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput)) console.log(v.bytesInOutput, k.replace(/.*node_modules\//,''));
console.log('gzip', gzipSync(r.outputFiles[0].contents,{level:9}).length);
