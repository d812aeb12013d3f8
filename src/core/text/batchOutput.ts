/**
 * One line of an OpenAI-compatible batch output file: what the OpenAI Batch API writes to its
 * output and error files and what vLLM's `run_batch` writes (BatchRequestOutput):
 *
 *   { id, custom_id, response: { status_code, request_id, body } | null, error: … | null }
 *
 * `body` is the endpoint's own response: `/v1/chat/completions` → `choices[0].message.content`
 * (a string, or a list of `{type: "text", text}` parts); `/v1/completions` → `choices[0].text`;
 * `/v1/responses` → the `output_text` parts of its `message` items. A failed request has
 * `error` (OpenAI: `{code, message}`; vLLM: a string, or an ErrorResponse object) and/or a
 * non-200 `status_code` (vLLM writes 400 with no body): such a line has no answer and costs
 * that line, with the reason.
 *
 * Anthropic's Message Batches results have the same join key and are read too:
 *   { custom_id, result: { type: "succeeded", message: { content: [{type: "text", text}], stop_reason } }
 *                       | { type: "errored" | "canceled" | "expired", error? } }
 */

export type BatchLine =
  | { custom_id: string; ok: true; content: string; finish_reason?: string }
  | { custom_id: string; ok: false; why: string };

/** Whether an object looks like a batch output line (so a reader can switch to this format). */
export function isBatchLine(r: Record<string, unknown>): boolean {
  return (typeof r.custom_id === 'string' || typeof r.custom_id === 'number') && ('response' in r || 'error' in r || obj(r.result)?.type !== undefined);
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The human part of an error as OpenAI or vLLM write it (a string, {message}, {error: {message}}). */
function errorText(e: unknown): string {
  if (typeof e === 'string') return e;
  const o = obj(e);
  if (!o) return String(e);
  const inner = obj(o.error);
  const message = typeof o.message === 'string' ? o.message : typeof inner?.message === 'string' ? inner.message : undefined;
  const code = o.code ?? inner?.code ?? o.type ?? inner?.type;
  const head = code !== undefined && code !== null ? `${String(code)}: ` : '';
  return message !== undefined ? `${head}${message}` : head ? head.slice(0, -2) : 'error';
}

/** Text of a chat message's content: a string, or the text parts of a list. */
function contentText(c: unknown): string | undefined {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.map((p) => obj(p)).filter((p) => p && typeof p.text === 'string').map((p) => p!.text as string);
    return parts.length ? parts.join('') : undefined;
  }
  return undefined;
}

function bodyAnswer(body: Record<string, unknown>): { content: string; finish_reason?: string } | undefined {
  if (Array.isArray(body.choices) && body.choices.length > 0) {
    const choice = obj(body.choices[0]);
    const finish = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
    const fromMessage = contentText(obj(choice?.message)?.content);
    if (fromMessage !== undefined) return { content: fromMessage, finish_reason: finish };
    if (typeof choice?.text === 'string') return { content: choice.text, finish_reason: finish };
    return undefined;
  }
  if (Array.isArray(body.output)) {
    const texts: string[] = [];
    for (const item of body.output) {
      const o = obj(item);
      if (o?.type !== 'message' || !Array.isArray(o.content)) continue;
      for (const part of o.content) {
        const p = obj(part);
        if (p?.type === 'output_text' && typeof p.text === 'string') texts.push(p.text);
      }
    }
    if (texts.length) return { content: texts.join(''), finish_reason: body.status === 'incomplete' ? 'length' : undefined };
  }
  return undefined;
}

/** Reads one batch line (call only when isBatchLine holds). */
export function readBatchLine(r: Record<string, unknown>): BatchLine {
  const custom_id = String(r.custom_id);
  const fail = (why: string): BatchLine => ({ custom_id, ok: false, why });
  const result = obj(r.result);
  if (result && !('response' in r)) {
    if (result.type !== 'succeeded') return fail(`request ${String(result.type)}${result.error ? ` (${errorText(result.error)})` : ''}`);
    const message = obj(result.message);
    const text = Array.isArray(message?.content) ? contentText(message.content) : undefined;
    if (text === undefined) return fail('result message has no text content');
    const stop = message?.stop_reason === 'max_tokens' ? 'length' : typeof message?.stop_reason === 'string' ? message.stop_reason : undefined;
    return { custom_id, ok: true, content: text, finish_reason: stop };
  }
  if (r.error !== undefined && r.error !== null) return fail(`request failed (${errorText(r.error)})`);
  const response = obj(r.response);
  if (!response) return fail('no response');
  const status = response.status_code;
  const body = obj(response.body);
  if (typeof status === 'number' && status !== 200) {
    const why = body?.error !== undefined ? `: ${errorText(body.error)}` : '';
    return fail(`HTTP status ${status}${why}`);
  }
  if (!body) return fail('response has no body');
  if (body.error !== undefined && body.error !== null) return fail(`request failed (${errorText(body.error)})`);
  const a = bodyAnswer(body);
  if (!a) return fail('response body has no answer (choices[0].message.content, choices[0].text or output_text)');
  return { custom_id, ok: true, ...a };
}
