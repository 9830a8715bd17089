"""Reading a matched date phrase into a range: which rule it is (a phrase, a rolling window, a
quarter, a fiscal year, a month, a span, ...) and its start and end, through the arithmetic of
routing.dates.ranges."""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Callable

from routing.dates.ranges import (
    _add_months,
    _Context,
    _first_day,
    _last_day,
    _month_end,
    _Point,
    _quarter_start,
)
from routing.dates.types import _BLOCKED, _MAX_DIGITS, DateRange, _norm


_ABSENT = object()
_WORDS = re.compile(r"\w+|[\x23№]")  # the words around a bare year
BARE_YEAR_PAST = 10  # a 4-digit number with no context word is a year at most this many years back (or one ahead)
YEAR_CONTEXT_SPAN = 50  # a bare number after a year's context word is a year this near today, else an amount


class RangeReadings:
    """Builders: each takes a match and returns a DateRange, or None to drop it (mixed into DateLexicon)."""

    @staticmethod
    def _word(table: dict, text: str, default=_ABSENT):
        """The table's value for a matched word. The patterns compare case-insensitively, and under
        that comparison letters such as dotless 'ı', dotted 'İ' or long 'ſ' equal 'i' and 's' while
        lower() keeps them apart: a word the plain look-up misses is found by the patterns' own
        comparison, so whatever a pattern matched is read."""
        key = _norm(text)
        if key in table:
            return table[key]
        raw = " ".join(text.split())
        for word, value in table.items():
            if re.fullmatch(re.escape(word), raw, re.IGNORECASE):
                return value
        if default is _ABSENT:
            raise KeyError(key)
        return default

    # ----------------------------------------------------------------------------------------
    # Builders: each takes the match and returns a DateRange, or None to drop the match

    def _build_phrase(self, ctx: "_Context", m: re.Match) -> DateRange:
        rule = self._word(self._phrase_rule, m.group("phrase"))
        t = ctx.today
        if rule == "today":
            return ctx.calendar(m, rule, t, t)
        if rule == "yesterday":
            return ctx.day_span(m, rule, -1, -1)
        if rule == "tomorrow":
            return ctx.day_span(m, rule, 1, 1)
        if rule == "ytd":
            return ctx.calendar(m, rule, date(t.year, 1, 1), t)
        if rule in ("mtd", "since_month_start"):
            return ctx.calendar(m, rule, t.replace(day=1), t)
        return ctx.calendar(m, rule, _quarter_start(t), t)  # qtd

    def _relative_builder(self, code: str) -> Callable:
        modifier_of = self._modifier_of[code]

        def build(ctx: _Context, m: re.Match) -> DateRange:
            mod = self._word(modifier_of, m.group("mod"))
            unit = self._word(self._unit_of, m.group("unit"))
            return ctx.relative(m, mod, unit)
        return build

    def _weekday_builder(self, code: str) -> Callable:
        """A weekday alone: the latest one up to today ("on Tuesday" asks about data, which is past).
        With this / last / next: that day of this / the previous / the next week (week start from
        the domain's settings)."""
        modifier_of = self._modifier_of.get(code, {})

        def build(ctx: _Context, m: re.Match) -> DateRange:
            t = ctx.today
            day = self._word(self._weekday_of, m.group("wday"))
            mod = self._word(modifier_of, m.group("wmod"), None) if m.groupdict().get("wmod") else None
            if mod is None:
                back = -((t.weekday() - day) % 7)
                return ctx.day_span(m, "weekday", back, back)
            week_start = -((t.weekday() - ctx.settings.week_start) % 7)
            offset = week_start + (day - ctx.settings.week_start) % 7 + 7 * {"this": 0, "last": -1, "next": 1}[mod]
            return ctx.day_span(m, f"{mod}_weekday", offset, offset)
        return build

    def _build_single(self, ctx: "_Context", m: re.Match) -> DateRange:
        return ctx.rolling(m, self._word(self._unit_of, m.group("unit")), 1, future=False)

    def _build_fiscal_alone(self, ctx: "_Context", m: re.Match) -> DateRange:
        return ctx.relative(m, "this", "fiscal_year")

    def _build_rolling(self, ctx: "_Context", m: re.Match) -> DateRange | None:
        groups = m.groupdict()
        if groups.get("oneunit"):
            unit, count = self._word(self._one_unit_of, groups["oneunit"]), 1
        else:
            unit = self._word(self._unit_of, groups["unit"])
            if groups["digits"] is not None:
                digits = groups["digits"].lstrip("0") or "0"
                count = int(digits) if len(digits) <= _MAX_DIGITS else 10 ** _MAX_DIGITS
                if groups.get("after") and len(digits) == 4 and -BARE_YEAR_PAST <= count - ctx.today.year <= 1:
                    return None  # "biaya di akun 2024 bulan lalu": a year's number before "bulan lalu", no 2,024 months
            else:
                count = self._parse_number(groups["words"])
                if count is None:
                    return None
        future = groups.get("nbefore") is not None or groups.get("nafter") is not None
        return ctx.rolling(m, unit, count, future=future)

    def _parse_number(self, words: str) -> int | None:
        """Number words to a value: "dua puluh lima" 25, "one hundred and five" 105."""
        tokens = [self._word(self._spelled_words, t, t.lower()) for t in re.split(r"[\s-]+", words.strip())]
        total = group = pending = 0
        after_scale = False
        for token in tokens:
            if not token:
                continue
            if token in self._joiners:
                if not after_scale:
                    return None
                continue
            if token in self._number_value:
                value = self._number_value[token]
                if value >= 1000:
                    total += value
                elif value >= 100:
                    group += value
                else:
                    pending += value
                after_scale = False
            elif token in self._teen_value:
                pending += self._teen_value[token]
                after_scale = False
            elif token in self._scale_value:
                scale = self._scale_value[token]
                if scale >= 1000:
                    total += (group + pending or 1) * scale
                    group = pending = 0
                elif scale >= 100:
                    group += (pending or 1) * scale
                    pending = 0
                else:
                    group += (pending or 1) * scale
                    pending = 0
                after_scale = True
            else:
                return None
        return total + group + pending

    def _quarter_number(self, m: re.Match) -> int | None:
        groups = m.groupdict()
        if groups.get("qd") is not None:
            digits = groups["qd"].lstrip("0") or "0"
            return int(digits) if len(digits) <= _MAX_DIGITS else 10 ** _MAX_DIGITS
        if groups.get("qr") is not None:
            return self._roman[groups["qr"].lower()]
        if groups.get("qo") is not None:
            return self._word(self._ordinal_value, groups["qo"])
        return None

    def _relative_year(self, ctx: "_Context", m: re.Match) -> int | None:
        """The year of "last year" / "tahun ini" / "agle saal" in group ry, or None."""
        phrase = m.groupdict().get("ry")
        if phrase is None:
            return None
        return ctx.today.year + {"this": 0, "last": -1, "next": 1}[self._word(self._year_phrase_of, phrase)]

    def _build_quarter(self, ctx: "_Context", m: re.Match) -> DateRange:
        number = self._quarter_number(m)
        year = m.groupdict().get("qy")
        year = int(year) if year else self._relative_year(ctx, m)
        if year is None:
            year = ctx.today.year
        if number is None or not 1 <= number <= 4:
            return ctx.unresolved(m, "quarter", self.message("bad_quarter", text=m.group(0)))
        start = date(year, 3 * number - 2, 1)
        return ctx.calendar(m, "quarter", start, _month_end(year, 3 * number))

    def _build_fiscal_year(self, ctx: "_Context", m: re.Match) -> DateRange:
        label = m.group("fy")
        year = int(label) if len(label) == 4 else 2000 + int(label)
        second = m.group("fy2")
        if second is not None:
            expected = year + 1 if len(second) == 4 else (year + 1) % 100
            if int(second) != expected:
                return ctx.unresolved(m, "explicit_fiscal_year",
                                      self.message("bad_fiscal_label", text=m.group(0)))
        if year == 0:
            return ctx.unresolved(m, "explicit_fiscal_year", self.message("year_zero", text=m.group(0)))
        fs = ctx.settings.fiscal_year_start_month
        if second is None and ctx.settings.fiscal_year_label == "end" and fs != 1:
            year -= 1          # "FY2025" names the year it ends in: April 2024 .. March 2025
            if year < 1:
                return ctx.unresolved(m, "explicit_fiscal_year",
                                      self.message("before_calendar", text=m.group(0)))
        start = date(year, fs, 1)
        end, clamp = _add_months(start, 12)
        if clamp:
            return ctx.unresolved(m, "explicit_fiscal_year", self.message("reaches_after_calendar", text=m.group(0)))
        return ctx.calendar(m, "explicit_fiscal_year", start, end - timedelta(days=1))

    def _build_year(self, ctx: "_Context", m: re.Match) -> DateRange | None:
        """A bare 4-digit number after a year's context word ("in 2025", "for 2024"): a year within
        YEAR_CONTEXT_SPAN years of today; further off it is an amount ("the payment of 1500")."""
        year = int(m.group("y"))
        if abs(year - ctx.today.year) > YEAR_CONTEXT_SPAN:
            return None
        return ctx.calendar(m, "explicit_year", date(year, 1, 1), date(year, 12, 31))

    # A 4-digit number with no year's context word is a year only where it may be one: at most BARE_YEAR_PAST years back
    # or one ahead of today, ending its clause or before one of the lexicon's year_ends words (or another such year),
    # and after none of its year_not_after words, one or two (a record's number mark, a currency, an amount
    # compared), nor after a quarter's roman numeral or ordinal.
    def _build_bare_year(self, ctx: "_Context", m: re.Match) -> DateRange | None:
        year = int(m.group("by"))
        if not -BARE_YEAR_PAST <= year - ctx.today.year <= 1:
            return None
        before = _WORDS.findall(m.string[: m.start()][-40:])
        after = _WORDS.findall(m.string[m.end() : m.end() + 40])
        if not before and not after:
            return None  # alone it says nothing of what it counts
        if before and any(self._word(t, w, None) is not None for w in {before[-1], " ".join(before[-2:])}
                          for t in (self._bare_not_after, self._roman, self._ordinal_value)):
            return None
        if m.string[m.end() :].lstrip()[:1].isalnum() and not (
                self._word(self._bare_ends, after[0], None) is not None or len(after[0]) == 4 and after[0].isdigit()):
            return None  # a word follows that keeps the clause going: "invoice 2025 status", "2025 units"
        return ctx.calendar(m, "explicit_year", date(year, 1, 1), date(year, 12, 31))

    def _month_day(self, ctx: "_Context", m: re.Match, rule: str, year: int) -> DateRange:
        """The month in group mm (and the day in md, if any) of `year`."""
        month = self._word(self._month_of, m.group("mm").rstrip("."))
        day = m.groupdict().get("md")
        if day is None:
            return ctx.calendar(m, rule, date(year, month, 1), _month_end(year, month))
        day = int(day)
        if not 1 <= day <= _month_end(year, month).day:
            point = _Point(year, month, day, m.group("mm"))
            return ctx.unresolved(m, "explicit_day", ctx.check(point) or self.message(
                "bad_day_in_year", day=day, month=m.group("mm"), year=year))
        return ctx.calendar(m, "explicit_day", date(year, month, day), date(year, month, day))

    def _build_month_of_year(self, ctx: "_Context", m: re.Match) -> DateRange:
        return self._month_day(ctx, m, "explicit_month", self._relative_year(ctx, m))

    def _month_modifier_builder(self, code: str) -> Callable:
        modifier_of = self._month_modifier_of[code]

        def build(ctx: _Context, m: re.Match) -> DateRange:
            mod = self._word(modifier_of, m.group("mmod"))
            month = self._word(self._month_of, m.group("mm").rstrip("."))
            t = ctx.today
            if mod == "this":
                year = t.year
            elif mod == "last":
                year = t.year if month < t.month else t.year - 1
            else:
                year = t.year if month > t.month else t.year + 1
            return self._month_day(ctx, m, f"{mod}_named_month", year)
        return build

    def _build_since(self, ctx: "_Context", m: re.Match) -> DateRange:
        month = self._word(self._month_of, m.group("mm").rstrip("."))
        year = int(m.group("my")) if m.group("my") else self._relative_year(ctx, m)
        day = m.group("md")
        if year is None:
            year = ctx.latest_month_year(month)
            if day is not None and date(year, month, min(int(day), _month_end(year, month).day)) > ctx.today:
                year -= 1
        if year < 1:
            return ctx.unresolved(m, "since_month", self.message("before_calendar", text=m.group(0)))
        point = _Point(year, month, int(day) if day else None, m.group("mm"))
        problem = ctx.check(point)
        if problem:
            return ctx.unresolved(m, "since_month", problem)
        start = _first_day(year, month, point.day)
        if start > ctx.today:
            return ctx.unresolved(m, "since_month", self.message("end_before_start", text=m.group(0)))
        before = ctx.text[:m.start()].split()
        if " ".join(m.group("sw").lower().split()) in self._roles["since_within"] \
                and not (before and before[-1].lower() in self._roles["from"]):  # "December so far": in it, up to today
            return ctx.calendar(m, "since_month", start, min(_month_end(year, month), ctx.today))
        return ctx.calendar(m, "since_month", start, ctx.today)

    def _build_week_of_month(self, ctx: "_Context", m: re.Match) -> DateRange:
        month = self._word(self._month_of, m.group("mm").rstrip("."))
        year = int(m.group("my")) if m.group("my") else self._relative_year(ctx, m)
        if year is None:
            year = ctx.latest_month_year(month)
        if year < 1:
            return ctx.unresolved(m, "week_of_month", self.message("before_calendar", text=m.group(0)))
        digits = m.group("wd") or m.group("wx")
        n = int(digits) if digits else self._word(self._ordinal_value, m.group("wo"))
        last = _month_end(year, month).day
        if not 1 <= 7 * n - 6 <= last:
            return ctx.unresolved(m, "week_of_month", self.message("bad_week_of_month", text=m.group(0)))
        return ctx.calendar(m, "week_of_month", date(year, month, 7 * n - 6), date(year, month, min(7 * n, last)))

    def _build_blocked(self, ctx: "_Context", m: re.Match) -> object:
        return _BLOCKED

    def _point(self, m: re.Match, prefix: str) -> "_Point":
        fields = self._atom_groups[m.re][prefix]
        found = {}
        for field, names in fields.items():
            for name in names:
                value = m.group(name)
                if value is not None:
                    found[field] = value
                    break
        month_text = found.get("m") or found.get("n")
        month = None
        if "m" in found:
            month = self._word(self._month_of, found["m"].rstrip("."))
        elif "n" in found:
            month = int(found["n"])
        year = found.get("y")
        return _Point(
            year=(int(year) + 2000 if len(year) == 2 else int(year)) if year is not None else None,  # "Dec'25"
            month=month,
            day=int(found["d"]) if "d" in found else None,
            month_text=month_text,
        )

    def _build_explicit(self, ctx: "_Context", m: re.Match) -> DateRange:
        point = self._point(m, "a")
        problem = ctx.check(point)
        if problem:
            rule = "explicit_day" if point.day is not None else "explicit_month"
            return ctx.unresolved(m, rule, problem)
        if point.day is not None:
            if point.year is None:
                found = ctx.latest_day(point.month, point.day)
                if found is None:
                    return ctx.unresolved(m, "explicit_day", self.message(
                        "bad_day", day=point.day, month=point.month_text))
                return ctx.calendar(m, "explicit_day", found, found)
            day = date(point.year, point.month, point.day)
            return ctx.calendar(m, "explicit_day", day, day)
        year = point.year if point.year is not None else ctx.latest_month_year(point.month)
        return ctx.calendar(m, "explicit_month", date(year, point.month, 1), _month_end(year, point.month))

    def _build_span(self, ctx: "_Context", m: re.Match) -> DateRange | None:
        a, b = self._point(m, "a"), self._point(m, "b")
        # What each end may be: a lone day needs a day and month after it; a lone year pairs with
        # a year or a month; two lone years need "from"/"between" to count as a date at all.
        if a.day is not None and a.month is None and (b.day is None or b.month is None):
            return None
        if b.day is not None and b.month is None and (a.month is None or a.day is None):
            return None
        if (a.month is None and b.month is None) and m.group("from") is None:
            return None
        # A lone day takes the other end's month; "15-1 Januari" then runs backwards inside one
        # month, which is an error, not a span across the new year.
        if a.month is None and a.day is not None:
            a = _Point(b.year, b.month, a.day, b.month_text)
            if b.day is not None and a.day > b.day:
                return ctx.unresolved(m, "explicit_span", self.message("end_before_start", text=m.group(0)))
        if b.month is None and b.day is not None:
            b = _Point(a.year, a.month, b.day, a.month_text)
            if a.day is not None and a.day > b.day:
                return ctx.unresolved(m, "explicit_span", self.message("end_before_start", text=m.group(0)))
        for point in (a, b):
            problem = ctx.check(point)
            if problem:
                return ctx.unresolved(m, "explicit_span", problem)
        wraps = (a.month or 1, a.day or 1) > (b.month or 12, b.day or 31)
        if a.year is None and b.year is not None:
            a = _Point(b.year - 1 if wraps else b.year, a.month, a.day, a.month_text)
        elif b.year is None and a.year is not None:
            b = _Point(a.year + 1 if wraps else a.year, b.month, b.day, b.month_text)
        elif a.year is None and b.year is None:
            year = ctx.today.year
            if _first_day(year, a.month, a.day, strict=False) > ctx.today:
                year -= 1
            a = _Point(year, a.month, a.day, a.month_text)
            b = _Point(year + 1 if wraps else year, b.month, b.day, b.month_text)
        for point in (a, b):
            if point.day is not None and point.day > _month_end(point.year, point.month).day:
                return ctx.unresolved(m, "explicit_span", self.message(
                    "bad_day_in_year", day=point.day, month=point.month_text, year=point.year))
        start = _first_day(a.year, a.month, a.day)
        end = _last_day(b.year, b.month, b.day)
        if end < start:
            return ctx.unresolved(m, "explicit_span", self.message("end_before_start", text=m.group(0)))
        return ctx.calendar(m, "explicit_span", start, end)
