import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allStepsDone,
  completeStep,
  initialSteps,
  nextStep,
  reconcileSteps,
  refuseSubmission,
  type StepState,
} from './step-machine.ts';

const statuses = (steps: StepState[]) => Object.fromEntries(steps.map((s) => [s.name, s.status]));

describe('check-in steps', () => {
  it('needs every step for a party of two with a balance', () => {
    const steps = initialSteps({ partySize: 2, balanceDue: 100 });
    assert.deepEqual(
      steps.map((s) => s.name),
      ['guest_details', 'companions', 'identity_document', 'signature', 'payment'],
    );
    assert.ok(steps.every((s) => s.status === 'pending' && s.required));
    assert.equal(nextStep(steps), 'guest_details');
  });

  it('skips companions for a party of one and payment when nothing is due', () => {
    const steps = initialSteps({ partySize: 1, balanceDue: 0 });
    assert.equal(statuses(steps).companions, 'skipped');
    assert.equal(statuses(steps).payment, 'skipped');
  });

  it('refuses a step while an earlier required step is pending', () => {
    const steps = initialSteps({ partySize: 2, balanceDue: 100 });
    assert.equal(refuseSubmission('open', steps, 'identity_document'), 'step_out_of_order');
    assert.equal(refuseSubmission('open', steps, 'guest_details'), null);
  });

  it('lets a skipped step be passed over, but not submitted', () => {
    let steps = initialSteps({ partySize: 1, balanceDue: 100 });
    steps = completeStep(steps, 'guest_details');
    assert.equal(nextStep(steps), 'identity_document');
    assert.equal(refuseSubmission('open', steps, 'identity_document'), null);
    assert.equal(refuseSubmission('open', steps, 'companions'), 'step_not_applicable');
  });

  it('allows correcting a completed step until the session completes', () => {
    let steps = initialSteps({ partySize: 1, balanceDue: 0 });
    steps = completeStep(steps, 'guest_details');
    steps = completeStep(steps, 'identity_document');
    assert.equal(refuseSubmission('open', steps, 'guest_details'), null);
    assert.equal(refuseSubmission('completed', steps, 'guest_details'), 'session_completed');
    assert.equal(refuseSubmission('cancelled', steps, 'signature'), 'reservation_cancelled');
  });

  it('is complete when every required step is completed or skipped', () => {
    let steps = initialSteps({ partySize: 1, balanceDue: 0 });
    for (const name of ['guest_details', 'identity_document'] as const) steps = completeStep(steps, name);
    assert.equal(allStepsDone(steps), false);
    steps = completeStep(steps, 'signature');
    assert.equal(allStepsDone(steps), true);
    assert.equal(nextStep(steps), null);
  });

  it('re-derives skips from the reservation as it is now, keeping completed steps', () => {
    let steps = initialSteps({ partySize: 2, balanceDue: 100 });
    steps = completeStep(steps, 'guest_details');
    const paidElsewhere = reconcileSteps(steps, { partySize: 2, balanceDue: 0 });
    assert.equal(statuses(paidElsewhere).payment, 'skipped');
    assert.equal(statuses(paidElsewhere).guest_details, 'completed');
    const owesAgain = reconcileSteps(paidElsewhere, { partySize: 1, balanceDue: 50 });
    assert.equal(statuses(owesAgain).payment, 'pending');
    assert.equal(statuses(owesAgain).companions, 'skipped');
    const unchanged = reconcileSteps(steps, { partySize: 2, balanceDue: 100 });
    assert.deepEqual(unchanged, steps);
  });
});
