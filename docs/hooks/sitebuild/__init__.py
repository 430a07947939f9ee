"""Build-time machinery of the documentation site (used by ``docs/hooks/site.py``).

Nothing here is part of the trusted base: these modules run the real ``pla``
commands, collect exact numbers from real runs, draw figures and render maths
so that the published notes show what the tool actually does.

- :mod:`sitebuild.mathml` -- LaTeX to MathML on the server (no JavaScript, no CDN).
- :mod:`sitebuild.commands` -- ```` ```pla-run ```` blocks: run commands, show real output.
- :mod:`sitebuild.examples` -- named exact runs whose numbers the pages quote.
- :mod:`sitebuild.macros` -- ``{{ run('walk').updates }}`` in prose, filled from those runs.
- :mod:`sitebuild.figures` -- matplotlib (Agg) figures drawn from exact runs.
"""
