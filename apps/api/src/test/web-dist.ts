import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A miniature build of the web app, shaped like Vite's output (WEB_DIST for tests); remove it afterwards. */
export function makeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'passada-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    [
      '<!doctype html><html><head><title>Passada</title>',
      '<script src="/theme-init.js"></script>',
      '<script type="module" crossorigin src="/assets/index-abc.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
      '</head><body><div id="root"><header>Passada</header><!--home-banner--></div></body></html>',
    ].join('\n'),
  );
  writeFileSync(path.join(dist, 'theme-init.js'), "document.documentElement.classList.add('x');\n");
  writeFileSync(path.join(dist, 'assets/index-abc.css'), 'body{color:red}');
  writeFileSync(path.join(dist, 'assets/index-abc.js'), 'console.log(1)');
  mkdirSync(path.join(dist, '.vite'));
  writeFileSync(
    path.join(dist, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-abc.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/react-1.js' },
      '_card.js': { file: 'assets/card-2.js', imports: ['_react.js'] },
      'src/features/home/home-page.tsx': {
        file: 'assets/home-page-3.js',
        imports: ['_card.js', '_react.js'],
      },
    }),
  );
  return dist;
}
