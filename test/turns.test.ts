import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Turns } from '../src/turns.js';

describe('taking turns', () => {
  test('a wait given up when its signal aborts: its work never runs, the next waiter gets the turn', async () => {
    const turns = new Turns(1);
    await turns.take();
    const ran: string[] = [];
    const gone = new AbortController();
    const abandoned = turns.run(async () => void ran.push('abandoned'), gone.signal);
    const next = turns.run(async () => void ran.push('next'));
    gone.abort(new Error('the client went away'));
    await assert.rejects(abandoned, /the client went away/);
    turns.give();
    await next;
    assert.deepEqual(ran, ['next']);
    await turns.take(); // the turn is free again: the abandoned wait kept none
  });

  test('an aborted signal takes no turn at all', async () => {
    const turns = new Turns(1);
    const gone = new AbortController();
    gone.abort(new Error('gone before it asked'));
    await assert.rejects(turns.take(gone.signal), /gone before it asked/);
    await turns.take(); // the one turn is still free
  });

  test('busy while a turn is taken or waited for, so that newcomers queue behind', async () => {
    const turns = new Turns(1);
    assert.equal(turns.busy, false);
    await turns.take();
    assert.equal(turns.busy, true);
    const waiting = turns.take();
    turns.give(); // to the one waiting
    await waiting;
    assert.equal(turns.busy, true);
    turns.give();
    assert.equal(turns.busy, false);
  });
});
