# Sourced by .ci/run and the README commands: puts a Node >= 22.12 first on PATH.
# Uses the system node when new enough, else installs Node 24 from the npm registry into .node/.
node_ok() {
  command -v node >/dev/null 2>&1 && node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)'
}
if ! node_ok; then
  root="$(pwd)/.node"
  if [ ! -x "$root/node_modules/.bin/node" ]; then
    echo "==> Node $(node -v 2>/dev/null || echo ausente) é antigo; instalando Node 24 em .node/"
    mkdir -p "$root"
    printf '{"private":true,"allowScripts":{"node":true}}\n' > "$root/package.json"
    npm install --prefix "$root" --no-audit --no-fund --loglevel=error node@24
  fi
  export PATH="$root/node_modules/.bin:$PATH"
fi
echo "==> Node $(node -v)"
