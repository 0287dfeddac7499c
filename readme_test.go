package batchlas_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeQuickStart checks that the README's quick start is examples/quickstart/main.go
// exactly and builds it, so that it compiles as written.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "## Quick start\n")
	if !ok {
		t.Fatal("README.md has no Quick start section")
	}
	_, block, ok := strings.Cut(after, "```go\n")
	block, _, closed := strings.Cut(block, "```\n")
	if !ok || !closed {
		t.Fatal("the Quick start section has no go code block")
	}
	file, err := os.ReadFile("examples/quickstart/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if block != string(file) {
		t.Errorf("README.md's quick start differs from examples/quickstart/main.go; copy the file into the README")
	}
	if out, err := exec.Command("go", "build", "-o", os.DevNull, "./examples/quickstart").CombinedOutput(); err != nil {
		t.Errorf("the quick start does not build: %v\n%s", err, out)
	}
}

// TestReadmePaths checks that every repository path the README cites, as a link or in
// inline code, exists.
func TestReadmePaths(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(readme), "") // commands, not citations
	var cited []string
	for _, m := range regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(text, -1) {
		cited = append(cited, m[1])
	}
	path := regexp.MustCompile(`^\.?/?[A-Za-z0-9_][A-Za-z0-9_./-]*$`)
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(text, -1) {
		s := m[1]
		if path.MatchString(s) && (strings.Contains(s, "/") || regexp.MustCompile(`\.(go|md|sh|txt|svg|jsonl)$`).MatchString(s)) &&
			!strings.HasPrefix(s, ".dev") && !strings.Contains(s, ".org/") && !strings.Contains(s, ".com/") {
			cited = append(cited, s)
		}
	}
	if len(cited) < 10 {
		t.Fatalf("found only %d cited paths: %v", len(cited), cited)
	}
	for _, c := range cited {
		if _, err := os.Stat(strings.TrimPrefix(c, "./")); err != nil {
			t.Errorf("README cites %q, which is not in the repository", c)
		}
	}
}

// TestReadmeResults checks that bench/results/README.md has a row for every file under
// bench/results, and that every file its table names exists.
func TestReadmeResults(t *testing.T) {
	const dir = "bench/results/"
	index, err := os.ReadFile(dir + "README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(string(index), -1) {
		listed[m[1]] = true
		if _, err := os.Stat(dir + m[1]); err != nil {
			t.Errorf("%sREADME.md lists %s, which is not in the repository", dir, m[1])
		}
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == dir+"README.md" {
			return err
		}
		if rel := strings.TrimPrefix(filepath.ToSlash(path), dir); !listed[rel] {
			t.Errorf("%s has no row in %sREADME.md (which op, device, commit and toolkit produced it)", path, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
