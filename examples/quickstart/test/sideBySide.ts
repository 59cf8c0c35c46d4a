/**
 * Two pages' screenshots composed side by side, each under its caption, in a small page of its own
 * (neither service's page can be framed: both send `frame-ancestors 'none'`), saved as one PNG: the
 * README's images of `npm start`.
 */
import type { BrowserContext } from 'playwright-core';

/**
 * Given a browser context, the width and height each screenshot was taken at, two captioned PNGs and
 * a path, writes the composed image there.
 *
 * @example
 * await composeSideBySide(browser.context, VIEWPORT, [['Simulator', simShot], ['Dashboard', dashboardShot]], 'side-by-side.png');
 */
export async function composeSideBySide(context: BrowserContext, viewport: { width: number; height: number }, shots: [string, Buffer][], path: string): Promise<void> {
  const figure = ([caption, png]: [string, Buffer]) => `<figure><figcaption>${caption}</figcaption><img alt="" src="data:image/png;base64,${png.toString('base64')}"></figure>`;
  const compose = await context.newPage();
  await compose.setViewportSize({ width: viewport.width * shots.length + 24 * shots.length, height: viewport.height + 60 });
  await compose.setContent(
    `<!doctype html><style>body{margin:0;padding:12px;display:flex;gap:24px;background:#d5dae1;font:600 15px system-ui,sans-serif;color:#1c2330}figure{margin:0}figcaption{margin:0 0 6px}img{display:block;width:${viewport.width}px;border:1px solid #8d97a5}</style>` +
      shots.map(figure).join(''),
  );
  await compose.screenshot({ path, fullPage: true });
  await compose.close();
}
