import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registerSchemaFormats } from '../infra/http/common-schemas.ts';
import { acceptStepData, schemaErrors } from './step-data.ts';
import { decodeImageDataUrl, isCountryCode } from './steps/fields.ts';
import { MAX_IMAGE_BYTES } from './steps/identity-document.ts';

// The app registers the 'date' format when it is built; these tests use the validators without one.
registerSchemaFormats();

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const url = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const rules = {
  partySize: 2,
  checkOut: '2027-03-04',
  today: '2027-03-01',
  recognisesPaymentToken: (t: string) => t === 'tok_visa',
};

describe('step data', () => {
  it('knows ISO 3166-1 alpha-2 country codes', () => {
    for (const code of ['PT', 'DE', 'US', 'JP', 'BR']) assert.ok(isCountryCode(code), code);
    for (const code of ['XX', 'ZZ', 'EU', 'pt', 'PRT', '']) assert.equal(isCountryCode(code), false, code);
  });

  it('decodes JPEG and PNG data URLs, checking the bytes and the size', () => {
    assert.deepEqual(decodeImageDataUrl(url('image/png', PNG), ['image/png'], 100), {
      type: 'image/png',
      bytes: PNG,
    });
    assert.equal(
      (decodeImageDataUrl(url('image/jpeg', JPEG), ['image/jpeg'], 100) as { type: string }).type,
      'image/jpeg',
    );
    assert.ok('error' in decodeImageDataUrl(url('image/jpeg', PNG), ['image/jpeg', 'image/png'], 100));
    assert.ok('error' in decodeImageDataUrl(url('image/jpeg', JPEG), ['image/png'], 100));
    assert.ok('error' in decodeImageDataUrl(url('image/gif', JPEG), ['image/jpeg'], 100));
    assert.ok('error' in decodeImageDataUrl('data:image/png;base64,***', ['image/png'], 100));
    assert.ok(
      'error' in
        decodeImageDataUrl(url('image/png', Buffer.concat([PNG, Buffer.alloc(100)])), ['image/png'], 100),
    );
  });

  it('reports the schema errors of a step’s data, under /data', () => {
    assert.deepEqual(schemaErrors('payment', { token: 1, extra: true }), [
      { path: '/data/extra', message: 'is not a known field' },
      { path: '/data/token', message: 'must be string' },
    ]);
    assert.deepEqual(schemaErrors('signature', { acceptTerms: false, signerName: 'A', signature: 'M1 1' }), [
      { path: '/data/acceptTerms', message: 'must be true' },
    ]);
    assert.deepEqual(schemaErrors('payment', { token: 'tok_visa' }), []);
  });

  it('masks the document number and keeps it, and the image, as secrets', () => {
    const result = acceptStepData(
      'identity_document',
      {
        type: 'passport',
        number: ' P1234-5678 ',
        issuingCountry: 'PT',
        expiryDate: '2027-03-04',
        image: url('image/png', PNG),
      },
      rules,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.accepted.view, {
      type: 'passport',
      numberLast4: '5678',
      issuingCountry: 'PT',
      expiryDate: '2027-03-04',
      hasImage: true,
    });
    assert.deepEqual(result.accepted.secret, { number: 'P1234-5678', imageType: 'image/png' });
    assert.deepEqual(result.accepted.attachment, PNG);
  });

  it('applies the rules of each step', () => {
    const expired = acceptStepData(
      'identity_document',
      { type: 'passport', number: 'P1', issuingCountry: 'PT', expiryDate: '2027-03-03' },
      rules,
    );
    assert.deepEqual(expired, {
      ok: false,
      errors: [{ path: '/data/expiryDate', message: 'must not be before check-out (2027-03-04)' }],
    });
    const companions = acceptStepData('companions', { guests: [] }, rules);
    assert.equal(companions.ok, false);
    const payment = acceptStepData('payment', { token: 'tok_other' }, rules);
    assert.deepEqual(payment, {
      ok: false,
      errors: [{ path: '/data/token', message: 'is not a payment token this service accepts' }],
    });
    const signature = acceptStepData(
      'signature',
      { acceptTerms: true, signerName: 'Ana', signature: 'M 10 10 L 20 20' },
      rules,
    );
    assert.ok(signature.ok);
    assert.deepEqual(signature.accepted.view, { acceptTerms: true, signerName: 'Ana', signed: true });
  });

  it('caps images at 5 MiB', () => {
    assert.equal(MAX_IMAGE_BYTES, 5 * 1024 * 1024);
  });
});
