"""Find date expressions in a query and resolve them to inclusive date ranges.

Modules: types (DateSettings, DateRange), lexicon (loading dates.yaml), finder (finding phrases),
readings (a phrase -> its rule and range), ranges (calendar arithmetic).

The rules are those of CONTRACT.md, "Date rules": calendar words use calendar boundaries
("last week" = the entire previous week), a stated duration uses a rolling window that ends
today ("last 7 days" = today and the 6 days before it). Every surface word (month names,
number words, units, this/last/next, ...) comes from ``lexicons/_shared/dates.yaml``; this module
holds only the grammar (which roles combine, in which order) and the calendar arithmetic, so a
new language is a YAML block, not code.

Conventions chosen here (each also pinned by a test):

- "past week" / "minggu terakhir" (no number) is a rolling window of one unit, like "past 7 days";
  "last week" / "minggu lalu" is the previous calendar week. "last 1 week" states a number, so it
  is rolling too.
- "N days ago" / "N hari yang lalu" is the rolling window (CONTRACT), not the single day N days back.
- "this weekend" is the Saturday-Sunday pair of today's Monday-to-Sunday week, in full, even when it
  is still ahead, whatever the domain's week start (on Sunday 2026-01-25 it is 24-25 January, also
  with weeks starting on Sunday); "last weekend" the pair one week earlier, "next weekend" later.
- Q1..Q4 without a year are the calendar quarters of today's year, in full, even when the quarter is
  still ahead (CONTRACT: "Q1" at 2026-01-22 is 2026-01-01..2026-03-31). Quarters are calendar
  quarters whatever the fiscal year, unless the domain says `dates.quarters: fiscal` (then a quarter
  without its own year is the fiscal year's, the latest begun: fiscal_parts.fiscal_quarters); "this
  quarter" is quarter start..today.
- A quarter or month followed by a relative year is that quarter or month of that year, one range:
  "Q4 last year" / "kuartal 4 tahun lalu" / "Q4 of last year" = Q4 of today's year - 1,
  "March next year" = March of today's year + 1 ("15 March last year" is that day).
- A fiscal year label "FY2025" / "FY25" / "tahun fiskal 2025" names the year it starts in by default
  (DateSettings.fiscal_year_label "start": with an April start, 2025-04-01..2026-03-31) or, with
  "end" (Indian usage), the year it ends in (2024-04-01..2025-03-31). A two-year label "FY 2024-25"
  always names the year that starts in its first year. With a January start both agree.
  "FY" / "this fiscal year" is fiscal year start..today.
- A month named without a year is that month of this year, in full (also the current month), or of
  last year when it has not begun yet. A day without a year ("15 Maret") is the most recent such
  day that is not after today. The same choice is made for the start of a span without a year.
- this / last / next before a month name (after it in Indonesian: "Maret lalu"), entire months:
  "this March" = March of today's year; "last March" = the latest March before the current month
  (this year's if March is before today's month, else last year's, so on 22 January 2026 "last
  January" is January 2025); "next March" = the first March after the current month. "since
  March" / "sejak Maret" = 1 March of the latest March that has begun (as for a bare month) ..
  today, rule since_month.
- "first week of January" / "minggu pertama Januari" = days 1-7 of that month (week n = days
  7n-6..7n, cut at the month's end), the month's year chosen as for a bare month. Other parts of a
  month ("mid-January", "end of March", "awal Maret") are not resolved: the entire phrase is left
  unmatched rather than read as the entire month.
- A lone day that takes the other end's month ("15-1 Januari", "Januari 15-1") must not run
  backwards: such a span is unresolved (it is not read as crossing the new year).
- Explicit spans include both ends ("from March to May" ends 31 May).
- A range that runs past 0001-01-01 or 9999-12-31, in part or wholly, is never clipped: it comes
  back unresolved with a reason, as do impossible dates ("32 Januari", "Q5", "last 0 days"), come back unresolved
  with a reason. Nothing here raises on odd input, and nothing reads the clock.
"""
from routing.dates.finder import find_dates, resolve_expression
from routing.dates.lexicon import DateLexicon, load_date_lexicon
from routing.dates.types import CALENDAR, DEFAULT_LEXICON_PATH, ROLLING, DateRange, DateSettings

__all__ = [
    "CALENDAR",
    "DEFAULT_LEXICON_PATH",
    "ROLLING",
    "DateLexicon",
    "DateRange",
    "DateSettings",
    "find_dates",
    "load_date_lexicon",
    "resolve_expression",
]
