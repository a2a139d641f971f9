// Loaded with --import into the processes the distributed-batch benchmark measures: at exit, appends the
// process's CPU time (user + system, every thread, worker threads included) to the file named by
// REFRACT_BENCH_CPU. CPU time suffers far less than wall time from other work on a shared machine.
import { appendFileSync } from 'node:fs';

const file = process.env.REFRACT_BENCH_CPU;
if (file) {
  process.on('exit', () => {
    const used = process.cpuUsage();
    appendFileSync(file, `${(used.user + used.system) / 1e6}\n`);
  });
}
