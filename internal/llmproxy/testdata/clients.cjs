// Drives the proxy at $PROXY_URL with the official Node SDKs, @anthropic-ai/sdk and openai,
// streaming and not, and prints what they got as one JSON object. Run by node_test.go with
// NODE_PATH pointing at the installed packages.
'use strict';
const AnthropicModule = require('@anthropic-ai/sdk');
const OpenAIModule = require('openai');
const Anthropic = AnthropicModule.default || AnthropicModule;
const OpenAI = OpenAIModule.default || OpenAIModule;

async function main() {
  const base = process.env.PROXY_URL;
  const out = {};

  const anthropic = new Anthropic({ apiKey: 'sk-ant-node-test', baseURL: base, maxRetries: 0 });
  const params = {
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    metadata: { user_id: 'user-to-drop' },
    messages: [{ role: 'user', content: 'Say hello.' }],
  };
  const { data: msg, response } = await anthropic.messages.create(params).withResponse();
  out.anthropic = { text: msg.content[0].text, stop: msg.stop_reason, rewrite: response.headers.get('x-winnow-rewrite') };

  const stream = anthropic.messages.stream(params);
  const events = [];
  stream.on('streamEvent', (event) => events.push(event.type));
  const final = await stream.finalMessage();
  out.anthropicStream = { text: final.content[0].text, stop: final.stop_reason, events };

  const openai = new OpenAI({ apiKey: 'sk-openai-node-test', baseURL: base + '/v1', maxRetries: 0 });
  const chatParams = { model: 'gpt-4o', metadata: { drop: 'me' }, messages: [{ role: 'user', content: 'Say hello.' }] };
  const { data: chat, response: chatResponse } = await openai.chat.completions.create(chatParams).withResponse();
  out.openai = { text: chat.choices[0].message.content, rewrite: chatResponse.headers.get('x-winnow-rewrite') };

  const chunks = await openai.chat.completions.create({ ...chatParams, stream: true });
  let text = '';
  let n = 0;
  for await (const chunk of chunks) {
    n++;
    text += (chunk.choices[0] && chunk.choices[0].delta && chunk.choices[0].delta.content) || '';
  }
  out.openaiStream = { text, chunks: n };

  try {
    await anthropic.messages.create(params, { headers: { 'X-Fake-Status': '529' } });
    out.error = { status: 0 };
  } catch (err) {
    out.error = { status: err.status, message: String(err.message) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
