/**
 * The REST transport over the tools: calling and listing them ({@link io.sqlagent.rest.ToolResource}) and reading
 * their audit log back ({@link io.sqlagent.rest.AuditResource}). It sits above the tool machinery it serves, as
 * {@code mcp} does for MCP; nothing below uses it.
 */
package io.sqlagent.rest;
