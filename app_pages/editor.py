"""Lexicon editor: edit synonyms, patterns, vague words and thresholds; preview the impact on
the golden questions; write back to YAML safely (routing.editing.store). Layout lives in ui/editor_views."""

from ui.common import page_setup
from ui.editor_views import render_editor_page, render_safely

page_setup("Lexicon editor")
render_safely(render_editor_page)
