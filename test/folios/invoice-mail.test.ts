/**
 * The guest's `invoice` e-mail (API.md 10, 13) over a real SMTP server: queued with the invoice,
 * in the guest's language, the PDF attached and read back (its text, its QR code).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GUEST } from '../booking/helpers.ts';
import { bookStay } from '../booking/reservation-helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../messages/smtp-receiver.ts';
import { type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { eventually } from '../postgres/support.ts';
import { call, invoicingHotel } from './helpers.ts';
import { readPdf } from './pdf-reader.ts';

describe('the invoice e-mail (API.md 13)', () => {
  let smtp: SmtpReceiver;
  let app: OperatorApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startOperatorApp(
      {
        SMTP_URL: smtp.url,
        MAIL_WORKER: 'true',
        PUBLIC_BASE_URL: 'https://innkeep.test',
        MAIL_RETRY_BASE_SECONDS: '0.01',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      },
      [invoicingHotel({ name: 'Hotel del Puerto', email: 'hola@puerto.example' }), makeHotel()],
    );
  });
  after(async () => {
    await app.t.close();
    await smtp.close();
  });

  const mailWith = (to: string, subject: string) =>
    eventually(`a mail to ${to} with “${subject}”`, async () =>
      smtp.mails.find((m) => JSON.stringify(m.to).includes(to) && (m.subject ?? '').includes(subject)),
    );

  it('mails the guest the invoice in their language with its PDF, and the credit note likewise', async () => {
    const { t, root, hotels } = app;
    const email = `ana.${Date.now()}@example.com`;
    const { code } = await bookStay(t, hotels[0].id, {
      nights: 2,
      guest: { ...GUEST, email, language: 'es' },
    });
    const issued = await call(t, root, 'POST', `/reservations/${code}/invoices`, {});
    assert.equal(issued.statusCode, 201, issued.body);
    const inv = issued.json();
    assert.equal(inv.language, 'es');

    const mail = await mailWith(email, `Su factura ${inv.number} de Hotel del Puerto`);
    assert.ok(mail.text?.includes(`Le adjuntamos su factura ${inv.number}`), mail.text);
    assert.ok(String(mail.html).includes(inv.number));
    assert.deepEqual(
      mail.replyTo?.value.map((a) => a.address),
      ['hola@puerto.example'],
    );
    const pdfs = mail.attachments.filter((a) => a.contentType === 'application/pdf');
    assert.equal(pdfs.length, 1);
    assert.equal(pdfs[0]?.filename, `${inv.number}.pdf`);
    const pdf = await readPdf(pdfs[0]?.content as Buffer);
    const text = pdf.text.join('\n').replace(/\u00a0/g, ' ');
    assert.ok(text.includes('Factura') && text.includes(inv.number), text);
    assert.ok(text.includes('VERI*FACTU'), text);
    assert.equal(await pdf.qr(1), inv.verifactu.qrUrl);

    // The reservation's messages list it, sent.
    const listed = await eventually('the invoice message recorded sent', async () => {
      const res = await call(t, root, 'GET', `/reservations/${code}/messages`);
      return res
        .json()
        .data.find((m: { kind: string; status: string }) => m.kind === 'invoice' && m.status === 'sent');
    });
    assert.equal(listed.language, 'es');

    // A credit note is e-mailed too, naming the invoice it annuls.
    const credit = await call(t, root, 'POST', `/invoices/${inv.id}/credit-note`, {
      reason: 'Error en el NIF',
    });
    assert.equal(credit.statusCode, 201, credit.body);
    const cn = credit.json();
    const creditMail = await mailWith(email, `Factura rectificativa ${cn.number}`);
    assert.ok(creditMail.text?.includes(`anula la factura ${inv.number}`), creditMail.text);
    const creditPdf = creditMail.attachments.find((a) => a.filename === `${cn.number}.pdf`);
    assert.ok(creditPdf);
    const creditText = (await readPdf(creditPdf.content)).text.join('\n');
    assert.ok(creditText.includes(`Rectifica la factura ${inv.number}`), creditText);
  });

  it('queues nothing when the issue is refused', async () => {
    const { t, root, hotels } = app;
    const email = `bruno.${Date.now()}@example.com`;
    const { code } = await bookStay(t, hotels[1].id, { nights: 1, guest: { ...GUEST, email } });
    const refused = await call(t, root, 'POST', `/reservations/${code}/invoices`, {});
    assert.equal(refused.statusCode, 409, refused.body);
    const res = await call(t, root, 'GET', `/reservations/${code}/messages`);
    assert.deepEqual(
      res.json().data.filter((m: { kind: string }) => m.kind === 'invoice'),
      [],
    );
  });
});
