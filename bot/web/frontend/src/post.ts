// Asking our server: a JSON body posted, and its JSON answer or the code of its refusal.

/** An answer, or why there is none: the server's refusal code, "unreachable" without an answer,
 * "other" for an answer that is no JSON object. */
export type Answer<T> = { ok: true; value: T } | { ok: false; code: string };

export async function postJson<T>(path: string, body: unknown): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    return { ok: false, code: "unreachable" };
  }
  const answer: unknown = await response.json().catch(() => null);
  if (response.ok && typeof answer === "object" && answer !== null) {
    return { ok: true, value: answer as T };
  }
  const code = typeof answer === "object" && answer !== null && "code" in answer ? String(answer.code) : "";
  return { ok: false, code: code === "" ? "other" : code };
}
