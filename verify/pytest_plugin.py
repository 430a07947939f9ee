"""pytest plugin (entry point ``pla_claims``): collects ```claim blocks from Markdown files."""
