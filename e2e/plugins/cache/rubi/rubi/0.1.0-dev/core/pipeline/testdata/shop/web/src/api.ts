// HTTP client for the shop's API.
export async function postJSON(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", body: JSON.stringify(body) });
}
