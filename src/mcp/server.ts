/**
 * @fileoverview The MCP server of one request: the official SDK's McpServer with the tools of
 * tools.ts bound to the caller, over its web-standard streamable HTTP transport in stateless mode
 * (no session: each POST is answered on its own, as JSON). A tool's refusal (a bad zone, bad dates)
 * is a tool error result the agent can read and correct, never a protocol error or a 5xx; an
 * unexpected failure is logged and answered as a tool error without its details.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import { DomainError, InvalidInput } from '../domain/errors.js';
import { mcpTools, type McpTool, type McpToolDeps } from './tools.js';

/** Told to every client on initialisation: what this server answers and how to ask it. */
const INSTRUCTIONS =
  "Tokentally: the caller's own AI-agent token usage and its USD cost, as recorded on this server. " +
  'Pass tz (an IANA zone such as Europe/Paris) so days start at local midnight, and a period ' +
  '(today, this_week, last_month, …) or from/to dates. Token counts and costs are exact decimal strings.';

/** The most values one tool call's arguments may hold (a few are expected). */
const MAX_TOOL_INPUT_ELEMENTS = 64;

export interface McpEndpointDeps extends McpToolDeps {
  readonly version: string;
  /** Reports a tool's unexpected failure (the agent is told only that it failed). */
  readonly onToolFailure: (tool: string, error: unknown) => void;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The agent's words for a refusal: the rule's own sentences. */
function refusalText(error: DomainError): string {
  if (error instanceof InvalidInput && error.detail === undefined && error.faults.length > 1)
    return error.faults.map((f) => f.message).join('; ');
  return error.message;
}

export class McpEndpoint {
  private readonly tools: readonly McpTool[];

  constructor(private readonly deps: McpEndpointDeps) {
    this.tools = mcpTools(deps);
  }

  /** The names of the tools, in the order tools/list gives them. */
  get toolNames(): string[] {
    return this.tools.map((t) => t.name);
  }

  /** Answers one MCP POST of `userId` (`body`: its JSON, already parsed and bounded by the edge). */
  async answer(request: Request, body: unknown, userId: string): Promise<Response> {
    const server = new McpServer(
      { name: 'tokentally', version: this.deps.version },
      { instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
    );
    for (const tool of this.tools) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: tool.inputSchema,
          annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
        },
        (args: Record<string, unknown>) => this.call(tool, userId, args),
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  }

  private async call(tool: McpTool, userId: string, args: Record<string, unknown>): Promise<CallToolResult> {
    try {
      return await tool.run(userId, args);
    } catch (error) {
      if (error instanceof DomainError) return toolError(refusalText(error));
      if (error instanceof ZodError)
        return toolError(`Invalid arguments: ${error.issues.map((i) => i.message).join('; ')}`);
      this.deps.onToolFailure(tool.name, error);
      return toolError(`${tool.name} failed on the server; try again later.`);
    }
  }
}
