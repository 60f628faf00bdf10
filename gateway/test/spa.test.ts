import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { ServiceApp } from '@flatship/kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildGateway } from '../src/app';
import { GATEWAY_MESSAGES } from '../src/messages';
import { createStaticDir, createUserDirectory, gatewayDeps, type StandInService, startStandInService } from './helpers';

let auth: StandInService;
let app: ServiceApp;
const users = createUserDirectory();

beforeAll(async () => {
  auth = await startStandInService('auth');
  app = await buildGateway(gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await auth.close();
});

describe('web app', () => {
  test.each(['/', '/main/dashboard', '/login', '/main/order-label?x=1'])(
    '%s serves index.html, never cached',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  test('/ gets the pre-rendered landing (index.html); every other route the page without it (app.html)', async () => {
    const dir = createStaticDir();
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"><main>landing</main></div>');
    writeFileSync(join(dir, 'app.html'), '<!doctype html><div id="root"></div>');
    const gw = await buildGateway(
      gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState, staticDir: dir }),
    );
    try {
      for (const url of ['/', '/?ref=ABC']) {
        const res = await gw.inject({ method: 'GET', url });
        expect(res.body).toContain('<main>landing</main>');
        expect(res.headers['cache-control']).toBe('no-cache');
      }
      for (const url of ['/login', '/main/dashboard', '/admin/user-management?page=2']) {
        const res = await gw.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toBe('<!doctype html><div id="root"></div>');
        expect(res.headers['cache-control']).toBe('no-cache');
      }
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an asset built with compressed copies goes out as the copy the browser accepts, else as itself', async () => {
    const dir = createStaticDir();
    const source = `console.log(${JSON.stringify('y'.repeat(4000))})`;
    writeFileSync(join(dir, 'assets', 'y.js'), source);
    writeFileSync(join(dir, 'assets', 'y.js.br'), brotliCompressSync(source));
    writeFileSync(join(dir, 'assets', 'y.js.gz'), gzipSync(source));
    writeFileSync(join(dir, 'index.html.br'), brotliCompressSync('<!doctype html><div id="root"></div>'));
    const gw = await buildGateway(
      gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState, staticDir: dir }),
    );
    try {
      const get = (url: string, acceptEncoding?: string) =>
        gw.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

      const br = await get('/assets/y.js', 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(source);
      expect(br.rawPayload.length).toBeLessThan(source.length / 10);

      const gz = await get('/assets/y.js', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(source);

      const plain = await get('/assets/y.js');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(source);

      // The page itself too; a file built without copies is still sent, uncompressed.
      const page = await get('/', 'br');
      expect(page.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root">');
      const small = await get('/assets/x.js', 'br, gzip');
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.body).toBe('console.log("x")');
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a built asset is served as itself with a long cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/x.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('console.log("x")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('an unhashed file is served but revalidated', async () => {
    const res = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<svg');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  test('a missing asset is a 404, not the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  test('dotfiles and paths outside the directory are not served', async () => {
    for (const url of ['/.env', '/assets/../.env', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('SECRET');
      expect(res.body).not.toContain('root:');
    }
  });

  test.each(['/api', '/healthz/x', '/readyz/extra', '/metrics/x', '/socket.io/'])(
    '%s is not a page of the web app',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('<div id="root">');
    },
  );

  test('a POST to a page path is a 404', async () => {
    const res = await app.inject({ method: 'POST', url: '/main/dashboard' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  test('without a built web app, pages answer 503 saying how to build it', async () => {
    const dir = createStaticDir(false);
    const gw = await buildGateway(
      gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState, staticDir: dir }),
    );
    try {
      const res = await gw.inject({ method: 'GET', url: '/main/dashboard' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe(GATEWAY_MESSAGES.spaMissing);
      expect(res.body).toContain('STATIC_DIR');
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true });
    }
  });

  test('a STATIC_DIR that does not exist yet still starts, and answers 503', async () => {
    const dir = join(createStaticDir(false), 'not-built');
    const gw = await buildGateway(
      gatewayDeps({ upstreams: { auth: auth.url }, tokenState: users.tokenState, staticDir: dir }),
    );
    try {
      await gw.ready();
      const res = await gw.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect((await gw.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await gw.close();
    }
  });
});
