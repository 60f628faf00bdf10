import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

async function newestMtime(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)));
  return newest;
}

/** Why the built SPA is out of date, or null when web/dist is current (or there is no web app). */
export async function webBuildReason(repoRoot: string): Promise<string | null> {
  const web = join(repoRoot, 'web');
  if (!existsSync(join(web, 'package.json'))) return null;
  const built = join(web, 'dist', 'index.html');
  if (!existsSync(built)) return 'web/dist is missing';
  const builtAt = (await stat(built)).mtimeMs;
  const sources = [join(web, 'src'), join(web, 'prerender'), join(web, 'index.html')].filter((p) => existsSync(p));
  for (const source of sources)
    if ((await newestMtime(source)) > builtAt) return 'web sources changed since the last build';
  return null;
}

/** Builds the SPA into web/dist; its output goes to a log file and only its tail is shown on failure. */
export async function buildWeb(repoRoot: string, logPath: string): Promise<void> {
  const log = createWriteStream(logPath);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('error', reject);
    child.once('close', resolve);
  });
  await new Promise<void>((r) => log.end(r));
  if (code !== 0) {
    const tail = (await readFile(logPath, 'utf8')).trimEnd().split('\n').slice(-20).join('\n');
    throw new Error(`building the web app failed (exit code ${code}); last lines of ${logPath}:\n${tail}`);
  }
}
