#!/usr/bin/env bash
# The HTML report as a person opens it: headless Chromium (Debian's chromium) loads
# index.html inside a checking page, which counts the images that failed to load and
# looks for the verdict table. The check must also catch a broken image and a missing
# table, so it is run on a spoiled copy too. Then the same for ccbench qualify's report,
# whose plots include the scan's heatmap.
# Usage: report_in_browser_test.sh CCBENCH [QUALIFY_SPEC]
set -euo pipefail
ccbench=$1
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "report_in_browser: chromium is not installed: tools/install-deps.sh installs it (apt-get install chromium)" >&2
  exit 1
fi
dir=$(mktemp -d /tmp/ccb-report-XXXXXX)
trap 'rm -rf "$dir"' EXIT
for run in base new; do
  "$ccbench" run --np 2 --sizes 64K,1M -n 3 -w 1 --algo ring --repeat 4 --line-rate 10G --json "$dir/$run.json" >/dev/null
done
"$ccbench" report "$dir/new.json" --baseline "$dir/base.json" --out "$dir/report"

# check PAGE: what the browser saw, as "images=N broken=M verdicts=yes|no first=CLASS|no
# nights=K study=T": CLASS the verdict line's (pass, fail) when it is whole in the first
# screen (1200 x 900), K the rows of a history's table of nights, T a study's tables.
check() {
  cat >"$dir/check.html" <<HTML
<!DOCTYPE html><html><head><title>pending</title></head><body>
<iframe id="r" src="$1" width="1200" height="900"></iframe>
<script>
document.getElementById('r').addEventListener('load', () => {
  const d = document.getElementById('r').contentDocument;
  const imgs = Array.from(d.images);
  const broken = imgs.filter(i => !i.complete || i.naturalWidth === 0).length;
  const verdicts = d.getElementById('verdicts') && d.getElementById('verdicts').rows.length > 1 ? 'yes' : 'no';
  const study = d.querySelectorAll('table.study').length;
  const v = d.getElementById('verdict');
  const first = v && v.getBoundingClientRect().bottom <= 900 && v.textContent.length > 0 ? v.className : 'no';
  const nights = d.getElementById('nights') ? d.getElementById('nights').rows.length - 1 : 0;
  document.body.setAttribute('data-result', 'images=' + imgs.length + ' broken=' + broken + ' verdicts=' + verdicts +
                             ' first=' + first + ' nights=' + nights + ' study=' + study);
});
</script></body></html>
HTML
  timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --allow-file-access-from-files \
    --virtual-time-budget=10000 --dump-dom "file://$dir/check.html" 2>/dev/null |
    grep -o 'data-result="[^"]*"' | sed 's/data-result="//; s/"$//'
}

seen=$(check "report/index.html")
echo "report_in_browser: the report: $seen"
[[ $seen =~ ^images=([0-9]+)\ broken=0\ verdicts=yes\ first=(pass|fail)\  && ${BASH_REMATCH[1]} -ge 4 ]] || {
  echo "report_in_browser: FAIL: every plot must load, the verdict stand in the first screen and its table be there" >&2
  exit 1
}
# A spoiled copy: one image's data cut short, the verdict table renamed.
sed -e '0,/base64,/s//base64,AAAA/' -e 's/id="verdicts"/id="gone"/' "$dir/report/index.html" >"$dir/report/spoiled.html"
spoiled=$(check "report/spoiled.html")
echo "report_in_browser: a spoiled copy: $spoiled"
[[ $spoiled =~ broken=[1-9] && $spoiled == *verdicts=no* ]] || {
  echo "report_in_browser: FAIL: the check did not catch a broken image or a missing table" >&2
  exit 1
}
if [[ -n ${2:-} ]]; then
  "$ccbench" qualify --spec "$2" --np 2 --report "$dir/qualify" --junit "$dir/qualify.xml" >"$dir/qualify.txt" 2>&1 || {
    cat "$dir/qualify.txt"
    echo "report_in_browser: FAIL: ccbench qualify --spec $2 did not pass" >&2
    exit 1
  }
  seen=$(check "qualify/index.html")
  echo "report_in_browser: the qualify report: $seen"
  [[ $seen =~ ^images=([0-9]+)\ broken=0\ verdicts=yes\ first=pass\  && ${BASH_REMATCH[1]} -ge 4 ]] &&
    grep -q "scan: no slow host or cable" "$dir/qualify/index.html" && grep -q "<testsuite" "$dir/qualify.xml" || {
    echo "report_in_browser: FAIL: the qualify report must load every plot and show its verdicts" >&2
    exit 1
  }
fi
# ccbench history's page: the verdict first, then a row per night.
mkdir "$dir/nights"
cp "$dir/base.json" "$dir/new.json" "$dir/nights/"
"$ccbench" history "$dir/nights" --out "$dir/history" >/dev/null || true  # 1 when the later night regressed
seen=$(check "history/index.html")
echo "report_in_browser: the history page: $seen"
[[ $seen =~ first=(pass|fail)\ nights=2\  ]] || {
  echo "report_in_browser: FAIL: the history page must open with its verdict and hold a table of its 2 nights" >&2
  exit 1
}
# ccbench study's report: its table per profile and its plots (two runs labelled apart).
"$ccbench" run --np 2 --profile bert-large:ddp --profile gpt2-xl:tp -n 1 -w 0 --json "$dir/profiles.json" >/dev/null
"$ccbench" study --from "$dir/profiles.json" --label a --from "$dir/profiles.json" --label b --out "$dir/study" >/dev/null
seen=$(check "study/index.html")
echo "report_in_browser: the study report: $seen"
[[ $seen =~ ^images=([0-9]+)\ broken=0\ .*study=2$ && ${BASH_REMATCH[1]} -ge 2 ]] || {
  echo "report_in_browser: FAIL: the study report must load every plot and show a table per profile" >&2
  exit 1
}
echo "report_in_browser: ok"
