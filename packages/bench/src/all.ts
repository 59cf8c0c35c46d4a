/** Runs every benchmark in sequence. Select some with `npm run bench -- core server sim`. */
import { runCoreBench } from './core.js';
import { runServerBench } from './server.js';
import { runSimBench } from './sim.js';

const selected = new Set(process.argv.slice(2));
const wants = (name: string) => selected.size === 0 || selected.has(name);

if (wants('core')) runCoreBench();
if (wants('sim')) await runSimBench();
if (wants('server')) await runServerBench();
