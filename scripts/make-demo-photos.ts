/**
 * `node --import tsx scripts/make-demo-photos.ts`: draws the demo catalogue's photos (catalog/photos/)
 * from SVG scenes with sharp: rooms, a bathroom and the harbour, made here rather than downloaded, so
 * the demo owes no one a licence. Run again after changing a scene; the JPEGs are committed.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const OUT = path.join(import.meta.dirname, '..', 'catalog', 'photos');
const W = 1600;
const H = 1067;

type Room = {
  wall: [string, string];
  floor: string;
  duvet: string;
  throw: string;
  beds: number;
  wide: boolean;
  sea: boolean;
};

const light = `<radialGradient id="light" cx="0.3" cy="0.25" r="0.9"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#000" stop-opacity="0.25"/></radialGradient>`;

function window(x: number, y: number, w: number, h: number, sea: boolean): string {
  const view = sea
    ? `<rect x="${x}" y="${y + h * 0.55}" width="${w}" height="${h * 0.45}" fill="url(#sea)"/>
       <path d="M${x + w * 0.15} ${y + h * 0.62} l40 -30 l8 30 z" fill="#f8f8f0"/><path d="M${x + w * 0.6} ${y + h * 0.7} l30 -24 l6 24 z" fill="#eee"/>`
    : `<rect x="${x}" y="${y + h * 0.5}" width="${w}" height="${h * 0.5}" fill="#7fa37a"/>
       <circle cx="${x + w * 0.3}" cy="${y + h * 0.55}" r="${w * 0.18}" fill="#4f7a4a"/><circle cx="${x + w * 0.75}" cy="${y + h * 0.6}" r="${w * 0.14}" fill="#5d8a55"/>`;
  return `<rect x="${x - 14}" y="${y - 14}" width="${w + 28}" height="${h + 28}" fill="#f4f1ea"/>
    <rect x="${x}" y="${y}" width="${w}" height="${h}" fill="url(#sky)"/>${view}
    <rect x="${x + w / 2 - 5}" y="${y}" width="10" height="${h}" fill="#f4f1ea"/>
    <rect x="${x - 60}" y="${y - 30}" width="70" height="${h + 80}" fill="#e9e2d3" opacity="0.9"/>
    <rect x="${x + w - 10}" y="${y - 30}" width="70" height="${h + 80}" fill="#e9e2d3" opacity="0.9"/>`;
}

function bed(x: number, w: number, room: Room): string {
  const y = 560;
  return `<rect x="${x}" y="${y - 190}" width="${w}" height="200" rx="18" fill="#6b4f3a"/>
    <rect x="${x - 20}" y="${y}" width="${w + 40}" height="260" rx="22" fill="${room.duvet}"/>
    <rect x="${x - 20}" y="${y + 150}" width="${w + 40}" height="70" fill="${room.throw}" opacity="0.9"/>
    <rect x="${x + 30}" y="${y - 50}" width="${w / 2 - 45}" height="80" rx="30" fill="#fbfaf6"/>
    <rect x="${x + w / 2 + 15}" y="${y - 50}" width="${w / 2 - 45}" height="80" rx="30" fill="#f6f4ee"/>
    <rect x="${x - 20}" y="${y + 250}" width="${w + 40}" height="40" fill="#000" opacity="0.18"/>`;
}

function roomScene(room: Room): string {
  const beds =
    room.beds === 1
      ? bed(room.wide ? 520 : 600, room.wide ? 560 : 400, room)
      : bed(330, 380, room) + bed(900, 380, room);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${room.wall[0]}"/><stop offset="1" stop-color="${room.wall[1]}"/></linearGradient>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8ec5e8"/><stop offset="1" stop-color="#dff0fa"/></linearGradient>
    <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f7fb0"/><stop offset="1" stop-color="#1d5275"/></linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${room.floor}"/><stop offset="1" stop-color="#3b2a1e"/></linearGradient>
    ${light}
  </defs>
  <rect width="${W}" height="${H}" fill="url(#wall)"/>
  ${window(1180, 140, 300, 380, room.sea)}
  <rect y="820" width="${W}" height="${H - 820}" fill="url(#floor)"/>
  <rect x="120" y="850" width="${W - 240}" height="150" rx="10" fill="#c9b79c" opacity="0.55"/>
  ${beds}
  <rect x="150" y="560" width="130" height="160" rx="8" fill="#7a5a43"/><rect x="190" y="440" width="50" height="120" fill="#e8dcc4"/>
  <ellipse cx="215" cy="440" rx="70" ry="34" fill="#f7ecd2"/>
  <rect x="160" y="150" width="300" height="200" fill="#d9cfbd"/><rect x="175" y="165" width="270" height="170" fill="${room.throw}" opacity="0.55"/>
  <rect width="${W}" height="${H}" fill="url(#light)"/>
</svg>`;
}

function bathroomScene(): string {
  const tiles = Array.from(
    { length: 16 },
    (_, i) => `<line x1="${i * 100}" y1="0" x2="${i * 100}" y2="760" stroke="#cfd8dc" stroke-width="3"/>`,
  ).join('');
  const rows = Array.from(
    { length: 8 },
    (_, i) => `<line x1="0" y1="${i * 100}" x2="${W}" y2="${i * 100}" stroke="#cfd8dc" stroke-width="3"/>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs><linearGradient id="tub" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#d7dde0"/></linearGradient>${light}</defs>
  <rect width="${W}" height="${H}" fill="#eef3f5"/>${tiles}${rows}
  <rect y="760" width="${W}" height="${H - 760}" fill="#8d8478"/>
  <rect x="200" y="560" width="760" height="300" rx="120" fill="url(#tub)"/>
  <rect x="240" y="580" width="680" height="60" rx="30" fill="#bcd7e6"/>
  <rect x="1120" y="420" width="300" height="40" rx="8" fill="#f7f7f7"/><rect x="1150" y="460" width="240" height="380" fill="#6b4f3a"/>
  <rect x="1130" y="120" width="280" height="260" rx="12" fill="#cfe3ee" stroke="#9aa7ad" stroke-width="8"/>
  <rect x="1000" y="520" width="26" height="300" fill="#b0b7ba"/><rect x="980" y="500" width="90" height="26" fill="#b0b7ba"/>
  <rect x="90" y="300" width="60" height="300" rx="10" fill="#e5c9a8"/>
  <rect width="${W}" height="${H}" fill="url(#light)"/>
</svg>`;
}

function harbourScene(): string {
  const houses = [
    ['#e8b04b', 0],
    ['#d9694a', 170],
    ['#f2e3c6', 330],
    ['#6fa3c7', 500],
    ['#e8d5a9', 660],
    ['#c45b3c', 830],
    ['#f5efe3', 990],
    ['#8cb08a', 1160],
    ['#e39a5f', 1330],
  ]
    .map(([color, x]) => {
      const h = 220 + ((Number(x) * 7) % 130);
      const win = Array.from(
        { length: 3 },
        (_, i) =>
          `<rect x="${Number(x) + 30 + i * 45}" y="${540 - h + 50}" width="26" height="36" fill="#3d4f5c" opacity="0.8"/>`,
      ).join('');
      return `<rect x="${x}" y="${540 - h}" width="170" height="${h}" fill="${color}"/><path d="M${x} ${540 - h} l85 -60 l85 60 z" fill="#a4472f"/>${win}`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f3a65a"/><stop offset="0.6" stop-color="#f7d3a1"/><stop offset="1" stop-color="#a9cde3"/></linearGradient>
    <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a7ca5"/><stop offset="1" stop-color="#16425b"/></linearGradient>
    ${light}
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  <circle cx="1280" cy="180" r="70" fill="#fff2c9" opacity="0.9"/>
  ${houses}
  <rect y="540" width="${W}" height="30" fill="#6b6b6b"/>
  <rect y="570" width="${W}" height="${H - 570}" fill="url(#sea)"/>
  <path d="M300 760 h260 l-40 50 h-190 z" fill="#f6f1e7"/><rect x="420" y="600" width="8" height="160" fill="#5b4636"/><path d="M428 610 l110 130 h-110 z" fill="#fdfdf8"/>
  <path d="M1000 830 h200 l-30 40 h-150 z" fill="#c94f3d"/><rect x="1090" y="700" width="6" height="130" fill="#5b4636"/>
  <rect width="${W}" height="${H}" fill="url(#light)" opacity="0.6"/>
</svg>`;
}

const ROOMS: Record<string, Room> = {
  single: {
    wall: ['#e9e4da', '#cfc6b5'],
    floor: '#a5825f',
    duvet: '#f5f3ee',
    throw: '#4f6d8a',
    beds: 1,
    wide: false,
    sea: false,
  },
  double: {
    wall: ['#efe6d8', '#d3c2a6'],
    floor: '#9b7653',
    duvet: '#faf8f3',
    throw: '#b5553c',
    beds: 1,
    wide: true,
    sea: false,
  },
  family: {
    wall: ['#e3ebe4', '#c3d1c4'],
    floor: '#a88b68',
    duvet: '#fbfbf7',
    throw: '#5f8f6a',
    beds: 2,
    wide: false,
    sea: false,
  },
  suite: {
    wall: ['#ebe6f0', '#cbc3d6'],
    floor: '#8a6a4f',
    duvet: '#fbfaf7',
    throw: '#2f5d8a',
    beds: 1,
    wide: true,
    sea: true,
  },
};

async function render(name: string, svg: string): Promise<void> {
  const file = path.join(OUT, name);
  const info = await sharp(Buffer.from(svg)).blur(0.6).jpeg({ quality: 70, mozjpeg: true }).toFile(file);
  console.log(`${name}: ${info.width}×${info.height}, ${Math.round(info.size / 1024)} KB`);
}

mkdirSync(OUT, { recursive: true });
await render('harbour.jpg', harbourScene());
for (const [id, room] of Object.entries(ROOMS)) await render(`${id}.jpg`, roomScene(room));
await render('bathroom.jpg', bathroomScene());
