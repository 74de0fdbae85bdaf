package pipeline

import (
	"context"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
)

// Notes written in Japanese are found by a question in Japanese: the
// analyzer cuts text without spaces into pairs of letters, so the words a
// question uses meet the sentences that hold them.
func TestJapaneseNotesAreFound(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	ctx := context.Background()
	notes := []knowledge.Input{
		{Type: knowledge.TypeGotcha, Title: "決済のリトライ上限", Body: "決済APIへのリトライは三回までにする。それ以上は二重請求になる。"},
		{Type: knowledge.TypeDecision, Title: "ログはJSONで出力する", Body: "ログ収集基盤がJSONしか読めないため、すべてのサービスでJSON形式に統一した。"},
		{Type: knowledge.TypeConcept, Title: "在庫の引当", Body: "注文が確定した時点で在庫を引き当て、キャンセル時に戻す。"},
		{Type: knowledge.TypeGotcha, Title: "Coupon applied twice", Body: "The discount ran before the total was recomputed."},
		{Type: knowledge.TypeHowto, Title: "Rotate the API keys", Body: "Create the new key, deploy, then revoke the old one."},
	}
	if _, err := e.project.Knowledge().Register(ctx, notes); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	for question, want := range map[string]string{
		"決済のリトライは何回まで？":    "決済のリトライ上限",
		"ログの出力形式を教えて":      "ログはJSONで出力する",
		"キャンセルしたら在庫はどうなる？": "在庫の引当",
	} {
		res, err := e.Retrieve(ctx, answer.Query{Text: question, Kinds: []string{core.DocNode}})
		if err != nil {
			t.Fatal(err)
		}
		rank := -1
		for i, it := range res.Items {
			if it.Title == want {
				rank = i
				break
			}
		}
		if rank < 0 || rank > 2 {
			var got []string
			for _, it := range res.Items {
				got = append(got, it.Title)
			}
			t.Errorf("%s: %q is not in the top 3: %q", question, want, got)
		}
	}
}
