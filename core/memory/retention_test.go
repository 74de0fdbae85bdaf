package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var policy = Policy{ArchiveAfter: 30 * 24 * time.Hour, PurgeAfter: 180 * 24 * time.Hour, KeepTags: []string{"critical", "decision", "keep"}, KeepReads: 3, KeepKeywords: []string{"postgres"}}

// aged returns a store whose chunks were saved days ago, and a function
// that moves its clock forward.
func aged(t *testing.T) (*Store, func(days int)) {
	t.Helper()
	s := Open(filepath.Join(t.TempDir(), "shop"))
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	return s, func(days int) { now = now.Add(time.Duration(days) * 24 * time.Hour) }
}

func ids(steps []Step) string {
	var out []string
	for _, st := range steps {
		out = append(out, st.Summary)
	}
	return strings.Join(out, ",")
}

func TestRetentionArchivesAndRestores(t *testing.T) {
	s, later := aged(t)
	old := save(t, s, Input{Summary: "old debugging", Tags: []string{"webhooks"}, Content: "the webhook fired twice because of the retry"})
	save(t, s, Input{Summary: "a decision", Tags: []string{"Decision"}, Content: "we keep the queue"})
	save(t, s, Input{Summary: "about the database", Content: "we moved to Postgres last week"})
	read := save(t, s, Input{Summary: "often read", Content: "the deploy checklist"})
	later(10)
	for range 3 {
		if _, err := s.Read(context.Background(), read.ID); err != nil {
			t.Fatal(err)
		}
	}
	later(25) // the first chunks are 35 days old; the read one was used 25 days ago
	before, _ := os.ReadFile(filepath.Join(s.dir, old.ID+".md"))

	plan, err := s.Preview(policy)
	if err != nil || ids(plan.Archive) != "old debugging" || ids(plan.Kept) != "about the database,a decision" && ids(plan.Kept) != "a decision,about the database" {
		t.Fatalf("preview: %+v %v", plan, err)
	}
	if _, err := os.Stat(filepath.Join(s.dir, old.ID+".md")); err != nil {
		t.Fatal("preview changed something")
	}
	for _, st := range plan.Kept {
		if st.Why != "tagged decision" && st.Why != `mentions "postgres"` {
			t.Errorf("kept for %q", st.Why)
		}
	}
	later(10) // the read chunk is idle for 35 days now, but read 3 times
	plan, err = s.Retain(context.Background(), policy)
	if err != nil || ids(plan.Archive) != "old debugging" || !strings.Contains(ids(plan.Kept), "often read") {
		t.Fatalf("run: %+v %v", plan, err)
	}
	if _, err := os.Stat(filepath.Join(s.dir, old.ID+".md")); !os.IsNotExist(err) {
		t.Errorf("the archived chunk is still active: %v", err)
	}
	// Archived, it is still listed and found by its summary and tags.
	list, _ := s.List(Filter{Tags: []string{"webhooks"}})
	if len(list) != 1 || !list[0].Archived {
		t.Errorf("list: %+v", list)
	}
	res, _ := s.Grep("debugging", GrepOptions{})
	if res.Total != 1 || res.Matches[0].Line != 0 || !strings.Contains(res.Matches[0].Text, "(archived)") {
		t.Errorf("grep of an archived chunk: %+v", res)
	}
	if res, _ := s.Grep("retry", GrepOptions{}); res.Total != 0 {
		t.Errorf("the archived text is searched: %+v", res)
	}
	// Reading restores it, byte for byte.
	text, _, err := s.Peek(context.Background(), old.ID, 1, 0)
	if err != nil || text != "the webhook fired twice because of the retry" {
		t.Fatalf("peek of an archived chunk: %q %v", text, err)
	}
	after, _ := os.ReadFile(filepath.Join(s.dir, old.ID+".md"))
	if string(after) != string(before) {
		t.Errorf("restored differently:\n%s\nwas:\n%s", after, before)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "archive", old.ID+".md.gz")); !os.IsNotExist(err) {
		t.Errorf("the archive outlived the restore: %v", err)
	}
	if err := s.Restore(context.Background(), old.ID); err == nil || !strings.Contains(err.Error(), "not archived") {
		t.Errorf("restore of an active chunk: %v", err)
	}
}

func TestPurgeKeepsNoContent(t *testing.T) {
	s, later := aged(t)
	c := save(t, s, Input{Summary: "secret plans", Content: "the launch code is swordfish"})
	later(31)
	if _, err := s.Retain(context.Background(), policy); err != nil {
		t.Fatal(err)
	}
	later(100)
	if plan, _ := s.Preview(policy); len(plan.Purge) != 0 {
		t.Errorf("purged too early: %+v", plan.Purge)
	}
	// Archives are purged by the archive file's age.
	old := time.Now().Add(-200 * 24 * time.Hour)
	os.Chtimes(filepath.Join(s.dir, "archive", c.ID+".md.gz"), old, old)
	s.Now = time.Now
	plan, err := s.Retain(context.Background(), policy)
	if err != nil || len(plan.Purge) != 1 || plan.Purge[0].ID != c.ID {
		t.Fatalf("purge: %+v %v", plan, err)
	}
	filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		if strings.Contains(string(data), "swordfish") || strings.Contains(string(data), "secret plans") {
			t.Errorf("%s keeps the purged content", p)
		}
		return nil
	})
	log, _ := os.ReadFile(filepath.Join(s.dir, "retention.log"))
	if !strings.Contains(string(log), "purged "+c.ID) {
		t.Errorf("retention.log: %q", log)
	}
	if _, err := s.Get(c.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("a purged chunk reads: %v", err)
	}
}

// A process killed between the two halves of any move loses nothing, and
// the next run leaves no orphan.
func TestRetentionSurvivesACrashAtEveryStep(t *testing.T) {
	for _, crashAt := range []string{"archive", "restore", "purge", "tidy"} {
		t.Run(crashAt, func(t *testing.T) {
			s, later := aged(t)
			c := save(t, s, Input{Summary: "to move", Content: "a line worth keeping"})
			later(31)
			crashed := errors.New("killed")
			first := crashAt
			if crashAt == "tidy" {
				first = "restore" // leave both files, then crash tidying them
			}
			s.crash = func(step, id string) error {
				if step == first {
					return crashed
				}
				return nil
			}
			_, err := s.Retain(context.Background(), policy)
			if crashAt == "restore" || crashAt == "tidy" {
				// Get the chunk archived first, then crash bringing it back.
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.Read(context.Background(), c.ID)
			}
			if crashAt == "purge" {
				if err != nil {
					t.Fatal(err)
				}
				old := time.Now().Add(-200 * 24 * time.Hour)
				os.Chtimes(filepath.Join(s.dir, "archive", c.ID+".md.gz"), old, old)
				s.Now = time.Now
				_, err = s.Retain(context.Background(), policy)
			}
			if crashAt == "tidy" {
				if !errors.Is(err, crashed) {
					t.Fatalf("the restore did not crash: %v", err)
				}
				// The restore crashed and left both files; the next run
				// crashes while tidying.
				s.crash = func(step, id string) error {
					if step == "tidy" {
						return crashed
					}
					return nil
				}
				_, err = s.Retain(context.Background(), policy)
			}
			if !errors.Is(err, crashed) {
				t.Fatalf("the crash did not happen: %v", err)
			}
			// Nothing is lost: the chunk reads, active or archived.
			got, err := s.Get(c.ID)
			if crashAt != "purge" && (err != nil || got.Content != "a line worth keeping") {
				t.Fatalf("after a crash at %s: %+v %v", crashAt, got, err)
			}
			// The next run finishes the job and leaves one copy at most.
			s.crash = nil
			if _, err := s.Retain(context.Background(), policy); err != nil {
				t.Fatal(err)
			}
			_, errActive := os.Stat(filepath.Join(s.dir, c.ID+".md"))
			_, errArchive := os.Stat(filepath.Join(s.dir, "archive", c.ID+".md.gz"))
			if errActive == nil && errArchive == nil {
				t.Errorf("after a crash at %s and a run: both the chunk and its archive", crashAt)
			}
			if crashAt != "purge" && errActive != nil && errArchive != nil {
				t.Errorf("after a crash at %s and a run: the chunk is gone", crashAt)
			}
		})
	}
}
