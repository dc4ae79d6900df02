import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../helpers/test-app.ts';
import { skipWithoutXmllint, validateAlpineBits } from '../helpers/xsd-validate.ts';

export const ALPINEBITS = '/api/v1/alpinebits';

/** Asserts `xml` is valid against the AlpineBits 2022-10 schema (skipped without xmllint). */
export async function assertSchemaValid(xml: string, what: string): Promise<void> {
  if (skipWithoutXmllint) return;
  const { valid, errors } = await validateAlpineBits(xml);
  assert.ok(valid, `${what} is not valid AlpineBits 2022-10:\n${errors}\n${xml}`);
}

/** A multipart/form-data body of text fields, as an AlpineBits client sends it. */
export function multipart(fields: Array<[string, string]>): { body: string; contentType: string } {
  const boundary = `----alpinebits${randomBytes(8).toString('hex')}`;
  const body = `${fields
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('')}--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export const basic = (key: string) => ({
  authorization: `Basic ${Buffer.from(`pms:${key}`).toString('base64')}`,
});

/**
 * One AlpineBits request; the request document (unless `invalidOnPurpose`) and every XML answer
 * are checked against the 2022-10 schema.
 */
export async function alpineBits(
  t: TestApp,
  key: string,
  action: string,
  request: string | null,
  options: { version?: string | null; clientId?: string; invalidOnPurpose?: boolean } = {},
) {
  if (request !== null && !options.invalidOnPurpose)
    await assertSchemaValid(request, `the ${action} request`);
  const { body, contentType } = multipart([
    ['action', action],
    ...(request === null ? [] : [['request', request] as [string, string]]),
  ]);
  const version = options.version === undefined ? '2022-10' : options.version;
  const res = await t.inject({
    method: 'POST',
    url: ALPINEBITS,
    headers: {
      ...basic(key),
      'content-type': contentType,
      ...(version ? { 'x-alpinebits-clientprotocolversion': version } : {}),
      'x-alpinebits-clientid': options.clientId ?? 'test-pms',
    },
    payload: body,
  });
  if (res.statusCode === 200) {
    assert.match(String(res.headers['content-type']), /^application\/xml/);
    await assertSchemaValid(res.body, `the answer to ${action}`);
  } else {
    assert.match(res.body, /^ERROR:/, res.body);
  }
  return res;
}

export const ota = (root: string, inner: string, version = '1.000') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://www.opentravel.org/OTA/2003/05" Version="${version}">${inner}</${root}>`;

export function freeRooms(
  hotelId: string,
  inventories: Array<{ roomTypeId: string; start: string; end: string; count?: number }>,
  completeSet = false,
) {
  return ota(
    'OTA_HotelInvCountNotifRQ',
    `${completeSet ? '<UniqueID Type="16" ID="1" Instance="CompleteSet"/>' : ''}<Inventories HotelCode="${hotelId}">${inventories
      .map(
        (i) =>
          `<Inventory><StatusApplicationControl Start="${i.start}" End="${i.end}" InvTypeCode="${i.roomTypeId}"/>${
            i.count === undefined ? '' : `<InvCounts><InvCount CountType="2" Count="${i.count}"/></InvCounts>`
          }</Inventory>`,
      )
      .join('')}</Inventories>`,
    '4',
  );
}

export const readRequest = (hotelId: string) =>
  ota('OTA_ReadRQ', `<ReadRequests><HotelReadRequest HotelCode="${hotelId}"/></ReadRequests>`);

export const ackRequest = (codes: string[]) =>
  ota(
    'OTA_NotifReportRQ',
    `<Success/><NotifDetails><HotelNotifReport><HotelReservations>${codes
      .map((c) => `<HotelReservation><UniqueID Type="14" ID="${c}"/></HotelReservation>`)
      .join('')}</HotelReservations></HotelNotifReport></NotifDetails>`,
  );
