import fsp from 'node:fs/promises';
import path from 'node:path';

/** A small stand-in for `dist/web`: the page, the service worker, a hashed asset and an icon. */
export async function writeWebBuild(root: string): Promise<void> {
  await fsp.mkdir(path.join(root, 'assets'), { recursive: true });
  await fsp.writeFile(path.join(root, 'index.html'), '<!doctype html><title>Steady</title>');
  await fsp.writeFile(path.join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await fsp.writeFile(path.join(root, 'manifest.webmanifest'), '{"name":"Steady"}');
  await fsp.writeFile(path.join(root, 'assets', 'index-AbC123.js'), 'console.log("app");');
  await fsp.writeFile(path.join(root, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  // Large enough to be sent compressed (decision 0119).
  await fsp.writeFile(path.join(root, 'assets', 'app-Large1.js'), 'console.log("Steady");\n'.repeat(200));
  await fsp.writeFile(path.join(root, 'assets', 'photo-Large2.png'), Buffer.alloc(4096, 7));
}
