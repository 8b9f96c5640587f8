/** @fileoverview Price data for the repricing tests: the bundled data with two models made dearer. */
import { waitForUpdate, type Provider } from '@pydantic/genai-prices';

/** A copy of the bundled data with gpt-5 and Claude Opus 4.1 dearer (other models unchanged). */
export async function dearerData(): Promise<Provider[]> {
  const data = JSON.parse(JSON.stringify(await waitForUpdate())) as Provider[];
  const set = (provider: string, model: string, prices: Record<string, number>) => {
    const m = data.find((p) => p.id === provider)?.models.find((x) => x.id === model);
    if (!m || Array.isArray(m.prices)) throw new Error(`fixture model ${model} missing`);
    m.prices = { ...m.prices, ...prices };
  };
  set('openai', 'gpt-5', { input_mtok: 2.5, output_mtok: 20 });
  set('anthropic', 'claude-opus-4-1', { output_mtok: 150 });
  return data;
}
