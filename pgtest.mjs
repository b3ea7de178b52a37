import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const a = new PGlite(); await a.query('select 1'); console.log('memory init', Date.now()-t);
t=Date.now(); const dump = await a.dumpDataDir('none'); console.log('dump', Date.now()-t, dump.size);
t=Date.now(); const b = new PGlite({loadDataDir: dump}); await b.query('select 1'); console.log('load from dump', Date.now()-t);
t=Date.now(); const c = new PGlite('/tmp/pgdir1'); await c.query('select 1'); console.log('new dir', Date.now()-t); await c.close();
t=Date.now(); const d = new PGlite('/tmp/pgdir1'); await d.query('select 1'); console.log('reopen dir', Date.now()-t); await d.close();
