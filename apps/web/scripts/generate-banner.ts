/**
 * Generates public/media/banner.webm, the home banner's video (spec §2), once: there is no ffmpeg
 * here, so Chromium draws an animated canvas and MediaRecorder encodes it. Run it again only to
 * change the video:  node --import tsx apps/web/scripts/generate-banner.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const WIDTH = 960;
const HEIGHT = 420;
const SECONDS = 6;
const out = path.resolve(import.meta.dirname, '../public/media/banner.webm');

/** Runs in the page: draws the scene frame by frame and records the canvas. Returns base64 WebM. */
function recordInPage(args: { width: number; height: number; seconds: number }): Promise<string> {
  const { width, height, seconds } = args;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.append(canvas);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');

  const limb = (x1: number, y1: number, x2: number, y2: number, w: number) => {
    ctx.lineWidth = w;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
  };

  const draw = (t: number) => {
    const sky = ctx.createLinearGradient(0, 0, 0, height);
    sky.addColorStop(0, '#7c2d12');
    sky.addColorStop(0.55, '#ea580c');
    sky.addColorStop(1, '#fdba74');
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, width, height);
    // Sunrise over the sea, rising slowly.
    ctx.fillStyle = '#fde68a';
    ctx.beginPath();
    ctx.arc(width * 0.78, height * 0.62 - t * 8, 70, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#0e7490';
    ctx.fillRect(0, height * 0.66, width, height * 0.34);
    ctx.fillStyle = 'rgba(255,255,255,0.35)';
    for (let i = 0; i < 12; i++) {
      const x = ((i * 140 - t * 60) % (width + 140)) + width + 140;
      ctx.fillRect((x % (width + 140)) - 70, height * 0.7 + (i % 3) * 22, 60, 3);
    }
    // Boardwalk stripes scrolling to give speed.
    ctx.fillStyle = '#fef3c7';
    ctx.fillRect(0, height * 0.86, width, 8);
    for (let i = 0; i < 14; i++) {
      const x = (((i * 90 - t * 320) % width) + width) % width;
      ctx.fillRect(x, height * 0.9, 40, 5);
    }
    // Runner: stick figure with swinging limbs.
    const phase = t * Math.PI * 3;
    const cx = width * 0.36;
    const hip = height * 0.6 + Math.abs(Math.sin(phase)) * -8;
    ctx.strokeStyle = '#1c1917';
    ctx.fillStyle = '#1c1917';
    ctx.lineCap = 'round';
    const sh = hip - 80;
    limb(cx, hip, cx + 12, sh, 16);
    ctx.beginPath();
    ctx.arc(cx + 18, sh - 26, 18, 0, Math.PI * 2);
    ctx.fill();
    for (const side of [1, -1]) {
      const s = Math.sin(phase) * side;
      const kneeX = cx + s * 38;
      const kneeY = hip + 46;
      limb(cx, hip, kneeX, kneeY, 14);
      limb(kneeX, kneeY, kneeX - 18 + s * 14, kneeY + 48 - Math.max(0, s) * 18, 12);
      const elbowX = cx + 12 - s * 30;
      const elbowY = sh + 36;
      limb(cx + 12, sh + 4, elbowX, elbowY, 11);
      limb(elbowX, elbowY, elbowX + 26, elbowY - 16 - s * 6, 10);
    }
    // Brand text fades in.
    const alpha = Math.min(1, t / 1.5);
    ctx.fillStyle = `rgba(255,255,255,${alpha})`;
    ctx.font = 'italic 900 96px system-ui, sans-serif';
    ctx.fillText('Passada', width * 0.52, height * 0.32);
    ctx.font = '600 30px system-ui, sans-serif';
    ctx.fillText('Corra o Nordeste', width * 0.53, height * 0.32 + 46);
  };

  return new Promise((resolve, reject) => {
    const stream = canvas.captureStream(24);
    const recorder = new MediaRecorder(stream, {
      mimeType: 'video/webm;codecs=vp8',
      videoBitsPerSecond: 420_000,
    });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    recorder.onerror = () => reject(new Error('MediaRecorder failed'));
    recorder.onstop = () => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
      reader.readAsDataURL(new Blob(chunks, { type: 'video/webm' }));
    };
    const start = performance.now();
    const tick = () => {
      const t = (performance.now() - start) / 1000;
      draw(t);
      if (t < seconds) requestAnimationFrame(tick);
      else recorder.stop();
    };
    recorder.start();
    requestAnimationFrame(tick);
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><body style="margin:0"></body>');
  // tsx compiles with keepNames, which wraps inner functions in __name(); the page lacks that helper.
  await page.evaluate('globalThis.__name = (fn) => fn');
  const base64 = await page.evaluate(recordInPage, { width: WIDTH, height: HEIGHT, seconds: SECONDS });
  const bytes = Buffer.from(base64, 'base64');
  writeFileSync(out, bytes);
  console.log(`${out}: ${(bytes.length / 1024).toFixed(0)} KB`);
  if (bytes.length > 400 * 1024) process.exitCode = 1;
} finally {
  await browser.close();
}
