"""Build-time machinery of the documentation site (used by ``docs/hooks/site.py``).

Nothing here is part of the trusted base: these modules run the real ``pla``
commands, collect exact numbers from real runs, draw figures and render maths
so that the published notes show what the tool actually does.

- :mod:`verify.docsite.mathml` -- LaTeX to MathML on the server (no JavaScript, no CDN).
- :mod:`verify.docsite.commands` -- ```` ```pla-run ```` blocks: run commands, show real output.
- :mod:`verify.docsite.examples` -- named exact runs whose numbers the pages quote.
- :mod:`verify.docsite.macros` -- ``{{ run('walk').updates }}`` in prose, filled from those runs.
- :mod:`verify.docsite.figures` -- matplotlib (Agg) figures drawn from exact runs.
"""
