/**
 * Batch output lines as OpenAI, vLLM run_batch and Anthropic write them (shapes from the OpenAI
 * BatchRequestOutput schema, vLLM's protocol.py / run_batch.py make_error_request_output, and the
 * Message Batches results docs), each read to its answer or to the reason it has none.
 */
import { describe, expect, it } from 'vitest';
import { isBatchLine, readBatchLine } from './batchOutput';

const chat = (content: unknown, finish = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'qwen2-vl',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
});

const cases: [string, Record<string, unknown>, ReturnType<typeof readBatchLine>][] = [
  [
    'an OpenAI Batch API output line',
    { id: 'batch_req_1', custom_id: 'q1', response: { status_code: 200, request_id: 'req_1', body: chat('SAFEWAY') }, error: null },
    { custom_id: 'q1', ok: true, content: 'SAFEWAY', finish_reason: 'stop' },
  ],
  [
    'a vLLM run_batch output line',
    { id: 'vllm-abc', custom_id: 'q2', response: { status_code: 200, request_id: 'vllm-batch-1', body: chat('[[1, 2, 3, 4]]') }, error: null },
    { custom_id: 'q2', ok: true, content: '[[1, 2, 3, 4]]', finish_reason: 'stop' },
  ],
  [
    'content as a list of text parts',
    { custom_id: 'q3', response: { status_code: 200, body: chat([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]) }, error: null },
    { custom_id: 'q3', ok: true, content: 'ab', finish_reason: 'stop' },
  ],
  [
    'an answer cut at the token limit',
    { custom_id: 'q4', response: { status_code: 200, body: chat('[[1, 2', 'length') } },
    { custom_id: 'q4', ok: true, content: '[[1, 2', finish_reason: 'length' },
  ],
  [
    'a /v1/completions body',
    { custom_id: 'q5', response: { status_code: 200, body: { choices: [{ index: 0, text: 'OPEN', finish_reason: 'stop' }] } } },
    { custom_id: 'q5', ok: true, content: 'OPEN', finish_reason: 'stop' },
  ],
  [
    'a /v1/responses body',
    {
      custom_id: 'q6',
      response: { status_code: 200, body: { status: 'completed', output: [{ type: 'reasoning' }, { type: 'message', content: [{ type: 'output_text', text: 'Tea' }] }] } },
    },
    { custom_id: 'q6', ok: true, content: 'Tea', finish_reason: undefined },
  ],
  [
    'an Anthropic Message Batches result',
    { custom_id: 'q7', result: { type: 'succeeded', message: { content: [{ type: 'text', text: 'Coffee' }], stop_reason: 'end_turn' } } },
    { custom_id: 'q7', ok: true, content: 'Coffee', finish_reason: 'end_turn' },
  ],
  [
    'an OpenAI error file line',
    { id: 'batch_req_2', custom_id: 'q8', response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } },
    { custom_id: 'q8', ok: false, why: 'request failed (batch_expired: This request could not be executed before the completion window expired.)' },
  ],
  [
    'a vLLM error line (status 400, the error a string)',
    { id: 'vllm-x', custom_id: 'q9', response: { status_code: 400, request_id: 'vllm-batch-2', body: null }, error: 'prompt is too long' },
    { custom_id: 'q9', ok: false, why: 'request failed (prompt is too long)' },
  ],
  [
    'a non-200 status with an error body',
    { custom_id: 'q10', response: { status_code: 429, body: { error: { message: 'Rate limit', type: 'rate_limit_error' } } }, error: null },
    { custom_id: 'q10', ok: false, why: 'HTTP status 429: rate_limit_error: Rate limit' },
  ],
  [
    'an errored Anthropic result',
    { custom_id: 'q11', result: { type: 'errored', error: { type: 'invalid_request_error', message: 'bad image' } } },
    { custom_id: 'q11', ok: false, why: 'request errored (invalid_request_error: bad image)' },
  ],
  [
    'a body without an answer',
    { custom_id: 'q12', response: { status_code: 200, body: { choices: [{ index: 0, message: { role: 'assistant', content: null } }] } } },
    { custom_id: 'q12', ok: false, why: 'response body has no answer (choices[0].message.content, choices[0].text or output_text)' },
  ],
];

describe('OpenAI-compatible batch output lines', () => {
  for (const [name, line, want] of cases) {
    it(`reads ${name}`, () => {
      expect(isBatchLine(line)).toBe(true);
      expect(readBatchLine(line)).toEqual(want);
    });
  }

  it('does not take a benchmark line with a response field for a batch line', () => {
    expect(isBatchLine({ image_path: 'a.jpg', question: 'q', response: '[1,2,3,4]' })).toBe(false);
    expect(isBatchLine({ id: 'page_001', response: 'x' })).toBe(false);
  });
});
