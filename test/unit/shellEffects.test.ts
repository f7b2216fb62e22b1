// The gate checks every file a shell command would write before the command runs (docs/design.md, the
// rule on shell writes), so a write missed here is an unguarded write and a read taken too widely stamps a
// mark the model has not earned. These cases pin, on commands coding agents really send, which files a
// command writes and how, the one file a plain read shows, and when the parse must admit it cannot know.
import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { shellEffects, type ShellEffects, type ShellWrite } from '../../src/shell/effects';
import { loadShellParser } from '../../src/shell/parser';

const HOME = '/home/u';

/** `opaque` left out where the spec does not make it clear (a known formatter, a test builtin): not asserted */
interface Expected {
  writes: ShellWrite[];
  read?: string;
  opaque?: boolean;
}
type Case = readonly [command: string, expected: Expected];

const overwrite = (path: string, into?: string[]): ShellWrite => (into ? { path, how: 'overwrite', into } : { path, how: 'overwrite' });
const append = (path: string): ShellWrite => ({ path, how: 'append' });
const inPlace = (path: string): ShellWrite => ({ path, how: 'in-place' });
const del = (path: string): ShellWrite => ({ path, how: 'delete' });
const glob = (write: ShellWrite): ShellWrite => ({ ...write, glob: true });
const nothing: Expected = { writes: [], opaque: false };
const unknowable: Expected = { writes: [], opaque: true };
const reads = (path: string): Expected => ({ writes: [], read: path, opaque: false });

// every failing command at once, not only the first: one wrong branch of the parse tends to fail several
function check(cases: readonly Case[]): void {
  const failures: string[] = [];
  for (const [command, expected] of cases) {
    let actual: ShellEffects | string;
    try {
      actual = shellEffects(command, { home: HOME });
    } catch (error) {
      actual = `threw ${String(error)}`;
    }
    const want = expected.opaque === undefined && typeof actual === 'object' ? { ...expected, opaque: actual.opaque } : expected;
    if (!isDeepStrictEqual(actual, want)) {
      failures.push(`${JSON.stringify(command)}\n    expected ${JSON.stringify(want)}\n    actual   ${JSON.stringify(actual)}`);
    }
  }
  assert.equal(failures.length, 0, `${failures.length} of ${cases.length} commands:\n  ${failures.join('\n  ')}`);
}

suite('shell effects: what a command writes and reads', () => {
  suiteSetup(async () => {
    await loadShellParser();
  });

  test('redirections and heredocs', () => {
    check([
      ['echo hello > out.txt', { writes: [overwrite('out.txt')], opaque: false }],
      ["echo '- fix: the gate reads shell writes' >> CHANGELOG.md", { writes: [append('CHANGELOG.md')], opaque: false }],
      ["printf '%s\\n' 'line one' 'line two' > notes/todo.txt", { writes: [overwrite('notes/todo.txt')], opaque: false }],
      [
        "cat > src/config.ts <<'EOF'\nexport const config = {\n  port: 3000,\n  host: 'localhost',\n};\nEOF",
        { writes: [overwrite('src/config.ts')], opaque: false },
      ],
      ['cat <<EOF > README.md\n# Project\n\nRun `npm test` to check.\nEOF', { writes: [overwrite('README.md')], opaque: false }],
      ["cat >> .gitignore <<'EOF'\nnode_modules/\ndist/\nEOF", { writes: [append('.gitignore')], opaque: false }],
      // the body is text, not commands: its `>` writes nothing
      ["cat > notes.md <<'EOF'\necho hi > fake.txt\nrm -rf /\nEOF", { writes: [overwrite('notes.md')], opaque: false }],
      ['cat > "src/my file.ts" <<"EOF"\nexport {};\nEOF', { writes: [overwrite('src/my file.ts')], opaque: false }],
      ['cat > run.sh <<-EOF\n\t#!/bin/sh\n\techo hi\n\tEOF', { writes: [overwrite('run.sh')], opaque: false }],
      ["cat > a.txt <<'EOF' && npm test\nbody\nEOF", { writes: [overwrite('a.txt')], opaque: true }],
      // what follows a heredoc's start on its line runs after it: tree-sitter hangs it under the heredoc
      ["cat > a.txt <<'EOF' && rm old.txt\nbody\nEOF", { writes: [overwrite('a.txt'), del('old.txt')], opaque: false }],
      ["cd app && cat > a.txt <<'EOF' && cd .. && rm b.txt\nbody\nEOF", { writes: [overwrite('app/a.txt'), del('b.txt')], opaque: false }],
      ["cat > a.txt <<'EOF' || echo fail > err.txt\nbody\nEOF", { writes: [overwrite('a.txt'), overwrite('err.txt')], opaque: false }],
      ["cat <<'EOF' | tee out.txt\nbody\nEOF", { writes: [overwrite('out.txt')], opaque: false }],
      ["cat <<'EOF' | sudo tee /etc/app.conf > /dev/null\nkey=1\nEOF", { writes: [overwrite('/etc/app.conf')], opaque: false }],
      ["cat <<'EOF' | python3 -\nopen('x.txt', 'w')\nEOF", unknowable],
      // a commit message in a heredoc is text: its `>` writes nothing
      ['git commit -m "$(cat <<\'EOF\'\nFix: a > b comparison\nEOF\n)"', { writes: [] }],
      ["cat > a.txt <<'EOF'\nA\nEOF\ncat > b.txt <<'EOF'\nB\nEOF", { writes: [overwrite('a.txt'), overwrite('b.txt')], opaque: false }],
      ["tee src/new.ts <<'EOF'\nexport {};\nEOF", { writes: [overwrite('src/new.ts')], opaque: false }],
      ['grep -rn TODO src > todos.txt 2> errors.log', { writes: [overwrite('todos.txt'), overwrite('errors.log')], opaque: false }],
      ['grep -r foo . 2>> errors.log', { writes: [append('errors.log')], opaque: false }],
      ['ls -la &> listing.txt', { writes: [overwrite('listing.txt')], opaque: false }],
      ['echo x 1> out.txt', { writes: [overwrite('out.txt')], opaque: false }],
      [': > empty.txt', { writes: [overwrite('empty.txt')], opaque: false }],
      ['> empty.txt', { writes: [overwrite('empty.txt')], opaque: false }],
      ['echo done >| forced.txt', { writes: [overwrite('forced.txt')], opaque: false }],
      ['echo x > ./out.txt', { writes: [overwrite('out.txt')], opaque: false }],
      ['npm run build > build.log 2>&1', { writes: [overwrite('build.log')], opaque: true }],
      ['npm run lint &>> lint.log', { writes: [append('lint.log')], opaque: true }],
      ['echo test > /dev/null', nothing],
      ['grep -rn foo src 2>/dev/null', nothing],
      ['echo error >&2', nothing],
      ['cat < input.txt > output.txt', { writes: [overwrite('output.txt')], opaque: false }],
      ['echo \'{"a": 1}\' | tee config.json', { writes: [overwrite('config.json')], opaque: false }],
      ["echo 'export PATH=$PATH:/opt/bin' | tee -a .bashrc .profile", { writes: [append('.bashrc'), append('.profile')], opaque: false }],
      ['echo x | tee out.txt > /dev/null', { writes: [overwrite('out.txt')], opaque: false }],
      [
        "echo 'server { listen 80; }' | sudo -u www-data tee /var/www/site.conf > /dev/null",
        { writes: [overwrite('/var/www/site.conf')], opaque: false },
      ],
      ['npm test 2>&1 | tee test-output.log', { writes: [overwrite('test-output.log')], opaque: true }],
      // a different `how` is a different write; the same one is named once
      ['echo a > a.txt && echo b >> a.txt', { writes: [overwrite('a.txt'), append('a.txt')], opaque: false }],
      ['echo a >> log.txt && echo b >> log.txt', { writes: [append('log.txt')], opaque: false }],
    ]);
  });

  test('in-place editors and formatters', () => {
    check([
      ["sed -i 's/foo/bar/g' src/a.ts src/b.ts", { writes: [inPlace('src/a.ts'), inPlace('src/b.ts')], opaque: false }],
      ["sed -i 's/a/b/' a.txt", { writes: [inPlace('a.txt')], opaque: false }],
      ["sed -i '/^$/d' notes.txt", { writes: [inPlace('notes.txt')], opaque: false }],
      ['sed -i "s/version = .*/version = \\"1.2.0\\"/" pyproject.toml', { writes: [inPlace('pyproject.toml')], opaque: false }],
      ["sed -i.bak 's/old/new/' config.yml", { writes: [inPlace('config.yml')], opaque: false }],
      ["sed -i '' 's/localhost/127.0.0.1/' .env", { writes: [inPlace('.env')], opaque: false }],
      ["sed -i '' -e 's/a/b/' src/app.js", { writes: [inPlace('src/app.js')], opaque: false }],
      ["sed -Ei 's/v[0-9]+/v2/' package.json", { writes: [inPlace('package.json')], opaque: false }],
      // scripts given by -e: every word left is a file
      ["sed --in-place -e 's/a/b/' -e 's/c/d/' lib/util.js", { writes: [inPlace('lib/util.js')], opaque: false }],
      ["sed 's/a/b/' a.txt", nothing],
      // -f names the script file: read, not written
      ['sed -i -f fixes.sed src/a.ts', { writes: [inPlace('src/a.ts')], opaque: false }],
      ["perl -i.bak -pe 's/a/b/' f.txt", { writes: [inPlace('f.txt')] }],
      ["perl -ne 'print if /foo/' f.txt", { writes: [] }],
      ["perl -pi -e 's/foo/bar/g' src/main.c", { writes: [inPlace('src/main.c')] }],
      ["perl -i -pe 's/foo/bar/' a.txt b.txt", { writes: [inPlace('a.txt'), inPlace('b.txt')] }],
      ['ruby -i -pe \'gsub(/a/, "b")\' notes.md', { writes: [inPlace('notes.md')] }],
      ['prettier --write src/index.ts src/app.tsx', { writes: [inPlace('src/index.ts'), inPlace('src/app.tsx')] }],
      ['prettier -w README.md', { writes: [inPlace('README.md')] }],
      ['prettier --check src/index.ts', { writes: [] }],
      ['gofmt -w main.go pkg/server/handler.go', { writes: [inPlace('main.go'), inPlace('pkg/server/handler.go')] }],
    ]);
  });

  test('cp, mv, rm, install, truncate and dd', () => {
    check([
      ['cp src/a.ts src/b.ts', { writes: [overwrite('src/b.ts', ['a.ts'])], opaque: false }],
      ['cp -f config.example.json config.json', { writes: [overwrite('config.json', ['config.example.json'])], opaque: false }],
      ['cp -r templates/base dist', { writes: [overwrite('dist', ['base'])] }],
      ['cp a.txt b.txt backup', { writes: [overwrite('backup', ['a.txt', 'b.txt'])], opaque: false }],
      [
        'cp -t build/ assets/logo.png assets/icon.svg',
        { writes: [overwrite('build/logo.png'), overwrite('build/icon.svg')], opaque: false },
      ],
      ['mv old.ts new.ts', { writes: [del('old.ts'), overwrite('new.ts', ['old.ts'])], opaque: false }],
      [
        'mv src/utils.js src/helpers.js lib',
        { writes: [del('src/utils.js'), del('src/helpers.js'), overwrite('lib', ['utils.js', 'helpers.js'])], opaque: false },
      ],
      ['rm -f tmp/cache.json', { writes: [del('tmp/cache.json')], opaque: false }],
      ['rm -rf dist build', { writes: [del('dist'), del('build')] }],
      // after --, a leading dash is a name
      ['rm -- -weird-file', { writes: [del('-weird-file')], opaque: false }],
      [
        'mv -t archive old1.log old2.log',
        { writes: [del('old1.log'), del('old2.log'), overwrite('archive/old1.log'), overwrite('archive/old2.log')], opaque: false },
      ],
      ['truncate -s0 debug.log', { writes: [inPlace('debug.log')], opaque: false }],
      ['unlink stale.lock', { writes: [del('stale.lock')], opaque: false }],
      // -m takes a value: 755 is neither a source nor the destination
      ['install -m 755 bin/tool /usr/local/bin/tool', { writes: [overwrite('/usr/local/bin/tool', ['tool'])] }],
      ['truncate -s 0 logs/app.log', { writes: [inPlace('logs/app.log')], opaque: false }],
      ['dd if=/dev/zero of=disk.img bs=1M count=10', { writes: [overwrite('disk.img')], opaque: false }],
      [
        'echo a > b.txt && cp b.txt c.txt && rm b.txt',
        { writes: [overwrite('b.txt'), overwrite('c.txt', ['b.txt']), del('b.txt')], opaque: false },
      ],
    ]);
  });

  test('git', () => {
    check([
      ['git checkout -- src/a.ts', { writes: [overwrite('src/a.ts')] }],
      ['git checkout HEAD~1 -- package.json package-lock.json', { writes: [overwrite('package.json'), overwrite('package-lock.json')] }],
      ['git restore src/app.ts', { writes: [overwrite('src/app.ts')] }],
      // -s takes a value: HEAD~2 is a revision, not a file
      ['git restore -s HEAD~2 src/a.ts', { writes: [overwrite('src/a.ts')] }],
      ['git restore --source=HEAD~2 src/a.ts', { writes: [overwrite('src/a.ts')] }],
      // --worktree as well as --staged: the file on disk is written too
      ['git restore --staged --worktree src/a.ts', { writes: [overwrite('src/a.ts')] }],
      // the index only: the working tree is untouched
      ['git restore --staged src/app.ts', { writes: [] }],
      ['git status', nothing],
      ['git diff', nothing],
      ['git diff > changes.patch', { writes: [overwrite('changes.patch')], opaque: false }],
      // the files a patch touches are in the patch, not in the command
      ['git apply fix.patch', unknowable],
    ]);
  });

  test('cd, subshells and lists', () => {
    check([
      ['cd packages/web && prettier --write src/index.ts', { writes: [inPlace('packages/web/src/index.ts')] }],
      // touch writes no content; the subshell's cd ends with it
      ['(cd sub && rm old.txt) && touch new.txt', { writes: [del('sub/old.txt')], opaque: false }],
      ['cd /tmp/work; echo hi > out.txt', { writes: [overwrite('/tmp/work/out.txt')], opaque: false }],
      ["cd src && cd lib && sed -i 's/a/b/' index.js", { writes: [inPlace('src/lib/index.js')], opaque: false }],
      ['cd .. && echo x > notes.txt', { writes: [overwrite('../notes.txt')], opaque: false }],
      ['cd ~/proj && echo x > a.txt', { writes: [overwrite('/home/u/proj/a.txt')], opaque: false }],
      ['cd build && npm run build; echo done > ../status.txt', { writes: [overwrite('status.txt')], opaque: true }],
      [
        'cd sub; (cd deeper && echo x > a.txt); echo y > b.txt',
        { writes: [overwrite('sub/deeper/a.txt'), overwrite('sub/b.txt')], opaque: false },
      ],
      ["cd app && cat > main.py <<'EOF'\nprint('hi')\nEOF", { writes: [overwrite('app/main.py')], opaque: false }],
      ['cd web && cp -t public ../assets/logo.png', { writes: [overwrite('web/public/logo.png')], opaque: false }],
      ['cd src && mv a.ts lib', { writes: [del('src/a.ts'), overwrite('src/lib', ['a.ts'])], opaque: false }],
      ['cd "$PROJECT_DIR" && echo x > out.txt', unknowable],
      // an absolute target does not depend on the directory: nothing is dropped, nothing unknown
      ['cd "$WORKDIR" && echo x > /tmp/log.txt', { writes: [overwrite('/tmp/log.txt')], opaque: false }],
      // the redirection is the outer shell's: the cd inside the parentheses does not move it
      ['(cd sub && echo x) > out.txt', { writes: [overwrite('out.txt')], opaque: false }],
      ['cd sub && { echo x > a.txt; }', { writes: [overwrite('sub/a.txt')], opaque: false }],
      ['cd a || exit 1; echo x > b.txt', { writes: [overwrite('a/b.txt')], opaque: false }],
      ['mkdir -p src/utils && echo x > src/utils/index.ts', { writes: [overwrite('src/utils/index.ts')] }],
      ['rm -rf node_modules package-lock.json && npm install', { writes: [del('node_modules'), del('package-lock.json')], opaque: true }],
      ['{ echo header; cat body.txt; } > combined.txt', { writes: [overwrite('combined.txt')], opaque: false }],
      ['if [ -f package.json ]; then echo found >> log.txt; fi', { writes: [append('log.txt')] }],
      ['for i in 1 2 3; do echo "$i" >> counts.txt; done', { writes: [append('counts.txt')], opaque: false }],
      ['while read -r line; do echo "$line"; done < input.txt > output.txt', { writes: [overwrite('output.txt')] }],
      ['ls src || echo missing > status.txt', { writes: [overwrite('status.txt')], opaque: false }],
      [
        "grep -q foo a.txt && sed -i 's/foo/bar/' a.txt || echo 'not found' >> misses.txt",
        { writes: [inPlace('a.txt'), append('misses.txt')], opaque: false },
      ],
      ['cat a.txt | sort | uniq > sorted.txt', { writes: [overwrite('sorted.txt')] }],
      // a write inside a substitution still happens
      ['echo "Built at $(date)" > build-info.txt', { writes: [overwrite('build-info.txt')] }],
      ['VERSION=$(git describe --tags | tee version.txt)', { writes: [overwrite('version.txt')] }],
    ]);
  });

  test('variables, globs, home, wrappers and bash -c', () => {
    check([
      ['F=out.txt; echo hi > "$F"', { writes: [overwrite('out.txt')], opaque: false }],
      ['OUT=dist/report.json && node scripts/report.js > "$OUT"', { writes: [overwrite('dist/report.json')], opaque: true }],
      ['DIR=out; echo x > "$DIR/result.txt"', { writes: [overwrite('out/result.txt')], opaque: false }],
      ['NAME=report; echo x > "${NAME}.md"', { writes: [overwrite('report.md')], opaque: false }],
      ['F=out.txt; echo hi > $F', { writes: [overwrite('out.txt')], opaque: false }],
      ['OUT=a.txt; OUT=b.txt; echo x > "$OUT"', { writes: [overwrite('b.txt')], opaque: false }],
      ['export OUT=log.txt && echo hi >> "$OUT"', { writes: [append('log.txt')], opaque: false }],
      // a tilde at the start of an assignment's value is expanded
      ['D=~/proj; echo x > "$D/a.txt"', { writes: [overwrite('/home/u/proj/a.txt')], opaque: false }],
      ['D=build; cd "$D" && rm -f app.js', { writes: [del('build/app.js')], opaque: false }],
      ['echo hi > "$UNKNOWN"', unknowable],
      ['echo hi > "$(mktemp)"', unknowable],
      ['echo x > ~/notes.txt', { writes: [overwrite('/home/u/notes.txt')], opaque: false }],
      // a quoted tilde is not expanded by the shell
      ['echo x > "~/notes.txt"', { writes: [overwrite('~/notes.txt')], opaque: false }],
      ['rm -f *.log', { writes: [glob(del('*.log'))] }],
      // quoted, the star is part of the name
      ["rm -f '*.log'", { writes: [del('*.log')], opaque: false }],
      ["sed -i 's/a/b/' src/*.ts", { writes: [glob(inPlace('src/*.ts'))] }],
      ['cd logs && rm -f app-??.log', { writes: [glob(del('logs/app-??.log'))] }],
      ['rm -f data[0-9].csv', { writes: [glob(del('data[0-9].csv'))] }],
      ["bash -c 'echo hi > inner.txt'", { writes: [overwrite('inner.txt')], opaque: false }],
      ['sh -c "cd web && sed -i \'s/x/y/\' app.js"', { writes: [inPlace('web/app.js')], opaque: false }],
      ["bash -lc 'npm install && echo ok > status.txt'", { writes: [overwrite('status.txt')], opaque: true }],
      ["cd api && bash -c 'echo x > out.txt'", { writes: [overwrite('api/out.txt')], opaque: false }],
      ['bash -c "$CMD"', unknowable],
      ['bash scripts/deploy.sh', unknowable],
      ["echo '127.0.0.1 app.local' | sudo tee -a /etc/hosts", { writes: [append('/etc/hosts')], opaque: false }],
      ["sudo sed -i 's/80/8080/' /etc/nginx/nginx.conf", { writes: [inPlace('/etc/nginx/nginx.conf')], opaque: false }],
      ["env NODE_ENV=production sed -i 's/dev/prod/' config.js", { writes: [inPlace('config.js')], opaque: false }],
      ["timeout 5s sed -i 's/a/b/' a.txt", { writes: [inPlace('a.txt')], opaque: false }],
      ['command rm -f a.txt', { writes: [del('a.txt')], opaque: false }],
      ['timeout 60 npm test > test.log 2>&1', { writes: [overwrite('test.log')], opaque: true }],
      ['nohup python3 server.py > server.log 2>&1 &', { writes: [overwrite('server.log')], opaque: true }],
      ['time prettier --write src/a.ts', { writes: [inPlace('src/a.ts')] }],
      // -n takes a value: 10 is not the program
      ['nice -n 10 gofmt -w main.go', { writes: [inPlace('main.go')] }],
    ]);
  });

  test('reads: one file shown whole, and what is not a read', () => {
    check([
      ['cat src/index.ts', reads('src/index.ts')],
      ['cat -n src/index.ts', reads('src/index.ts')],
      ['cat "src/my file.ts"', reads('src/my file.ts')],
      ["nl -ba src/x.ts | sed -n '1,120p'", reads('src/x.ts')],
      ['nl -b a src/x.ts', reads('src/x.ts')],
      ["sed -n '10p' README.md", reads('README.md')],
      ["sed -n '200,$p' src/big.ts", reads('src/big.ts')],
      ["sed -n '1,80p' src/extension.ts", reads('src/extension.ts')],
      ['head -n 50 src/a.ts', reads('src/a.ts')],
      ['head -20 src/a.ts', reads('src/a.ts')],
      ['head src/a.ts', reads('src/a.ts')],
      ['tail src/a.ts', reads('src/a.ts')],
      ["cat -n 'src/a.ts'", reads('src/a.ts')],
      ['sed -n "5,15p" src/a.ts', reads('src/a.ts')],
      ['cat /etc/hosts', reads('/etc/hosts')],
      ['cat ../other/a.ts', reads('../other/a.ts')],
      ['cat src/a.ts | head', reads('src/a.ts')],
      ['cat src/a.ts | tail -n +5', reads('src/a.ts')],
      ['tail -n +100 logs/app.log', reads('logs/app.log')],
      ['tail -30 logs/app.log', reads('logs/app.log')],
      ['cat package.json | head -n 40', reads('package.json')],
      ['cat src/a.ts | tail -n 20', reads('src/a.ts')],
      ["cat -n src/a.ts | sed -n '10,30p'", reads('src/a.ts')],
      ['head -n 100 src/a.ts | tail -n 20', reads('src/a.ts')],
      ['cat a.txt b.txt', nothing],
      ['cat -n a.ts b.ts', nothing],
      ["sed -n '1,20p' ~/x.ts", nothing],
      ['cat a.txt > b.txt', { writes: [overwrite('b.txt')], opaque: false }],
      ['cat a.ts 2>/dev/null', nothing],
      ['cat src/*.ts', { writes: [] }],
      ['cat ~/notes.txt', nothing],
      ['cat "$F"', nothing],
      ['cd src && cat a.ts', nothing],
      ['cat -A a.txt', nothing],
      ['head -c 100 a.ts', nothing],
      ['tail -f logs/app.log', nothing],
      ["sed -n '/foo/p' a.ts", nothing],
      ["sed -n '1,20p' a.ts b.ts", nothing],
      ['cat a.ts | grep foo', nothing],
      ['cat a.ts | head -5 | tail -2', nothing],
      ["nl -ba src/x.ts | sed -n '1,120p' | head", nothing],
      ['npm test 2>&1 | tail -20', unknowable],
    ]);
  });

  test('commands that write nothing the parse can name', () => {
    check([
      ['ls -la', nothing],
      ['pwd', nothing],
      ['echo hi', nothing],
      ['echo $PATH', nothing],
      ['echo "$(cat a.txt)"', nothing],
      ['touch a.txt', nothing],
      ["find . -name '*.ts' -print", { writes: [] }],
      ['grep -rn foo src', nothing],
      ["grep -rn 'useState' src --include='*.tsx'", nothing],
      ['wc -l src/*.ts', { writes: [] }],
      ['git log --oneline -10', { writes: [] }],
      ['npm test', unknowable],
      ['npm run build', unknowable],
      ['python3 gen.py', unknowable],
      ['node scripts/x.js', unknowable],
      ['./scripts/setup.sh', unknowable],
      ["python3 - <<'EOF'\nopen('x.txt', 'w').write('hi')\nEOF", unknowable],
      ["find . -name '*.log' -delete", unknowable],
      ["find . -name '*.tmp' -exec rm {} \\;", unknowable],
      // the files come from stdin
      ["find src -name '*.ts' | xargs sed -i 's/a/b/'", unknowable],
    ]);
  });
});
