import { Type } from '@sinclair/typebox';
import { StorableString } from '../../infra/http/text-schemas.ts';
import { decodeImageDataUrl, Name } from './fields.ts';
import { defineStep } from './step.ts';

/** SVG path data as a drawing pad produces it: starts with a move-to, only path commands and numbers. */
const SVG_PATH = /^[Mm][\sMmLlHhVvCcSsQqTtAaZz0-9.,+eE-]*$/;
const MAX_SIGNATURE_IMAGE_BYTES = 512 * 1024;

const SignatureData = Type.Object(
  {
    acceptTerms: Type.Literal(true, { description: 'must be `true`: the guest accepts the house terms' }),
    signerName: Name('name of the person signing', 'Ana Silva'),
    signature: StorableString({
      minLength: 1,
      maxLength: 700_000,
      description:
        'the drawn signature: a PNG data URL (`data:image/png;base64,…`) or SVG path data (`M10 20 L30 40 …`)',
      examples: ['M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80'],
    }),
  },
  { additionalProperties: false, description: 'Acceptance of the terms, signed' },
);

const SignatureView = Type.Object(
  { acceptTerms: Type.Literal(true), signerName: Type.String(), signed: Type.Literal(true) },
  { additionalProperties: false, title: 'signature data' },
);

/** The house terms accepted and signed: the drawing is stored encrypted, never shown. */
export const signature = defineStep({
  name: 'signature',
  data: SignatureData,
  example: {
    acceptTerms: true,
    signerName: 'Ana Silva',
    signature: 'M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80',
  },
  views: [SignatureView],
  accept(d, _rules, problem) {
    if (d.signature.startsWith('data:')) {
      const decoded = decodeImageDataUrl(d.signature, ['image/png'], MAX_SIGNATURE_IMAGE_BYTES);
      if ('error' in decoded) problem('/signature', decoded.error);
    } else if (!SVG_PATH.test(d.signature) || !/\d/.test(d.signature)) {
      problem('/signature', 'must be a PNG data URL (data:image/png;base64,…) or SVG path data (M…)');
    }
    if (!d.signerName.trim()) problem('/signerName', 'must not be blank');
    return {
      view: { acceptTerms: true, signerName: d.signerName, signed: true },
      secret: { signature: d.signature },
      attachment: null,
    };
  },
});
