// Cross-check of @runledger/verify against Go's reference implementations of the same formats:
// golang.org/x/mod/sumdb/tlog (RFC 6962 trees and proofs) and golang.org/x/mod/sumdb/note
// (C2SP signed notes). Reads one JSON request on stdin, writes one JSON answer on stdout.
// Run in GOPATH mode: GO111MODULE=off GOPATH=<folder holding src/golang.org/x/mod> go run main.go
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type treeRequest struct {
	Leaves      []string   `json:"leaves_hex"`  // leaf data (32-byte receipt hashes), hex
	Inclusion   [][2]int64 `json:"inclusion"`   // [leaf index, tree size]
	Consistency [][2]int64 `json:"consistency"` // [first, second]
}

type treeAnswer struct {
	Roots       []string   `json:"roots_hex"` // root for sizes 0..n (size 0: empty)
	Inclusion   [][]string `json:"inclusion"`
	Consistency [][]string `json:"consistency"`
}

type signRequest struct {
	Skey string `json:"skey"`
	Text string `json:"text"`
}

type openRequest struct {
	Vkey string `json:"vkey"`
	Note string `json:"note"`
}

type request struct {
	Trees []treeRequest `json:"trees"`
	Sign  []signRequest `json:"sign"`
	Open  []openRequest `json:"open"`
}

type openAnswer struct {
	OK   bool   `json:"ok"`
	Text string `json:"text,omitempty"`
}

type answer struct {
	Trees []treeAnswer `json:"trees"`
	Sign  []string     `json:"sign"`
	Open  []openAnswer `json:"open"`
	Vkeys []string     `json:"vkeys"`
}

func hexes(hs []tlog.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = hex.EncodeToString(h[:])
	}
	return out
}

func tree(req treeRequest) (treeAnswer, error) {
	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			out[i] = stored[x]
		}
		return out, nil
	})
	ans := treeAnswer{Roots: []string{}, Inclusion: [][]string{}, Consistency: [][]string{}}
	empty, _ := tlog.TreeHash(0, reader)
	ans.Roots = append(ans.Roots, hex.EncodeToString(empty[:]))
	for i, leafHex := range req.Leaves {
		data, err := hex.DecodeString(leafHex)
		if err != nil {
			return ans, err
		}
		hs, err := tlog.StoredHashes(int64(i), data, reader)
		if err != nil {
			return ans, err
		}
		stored = append(stored, hs...)
		root, err := tlog.TreeHash(int64(i+1), reader)
		if err != nil {
			return ans, err
		}
		ans.Roots = append(ans.Roots, hex.EncodeToString(root[:]))
	}
	for _, q := range req.Inclusion {
		p, err := tlog.ProveRecord(q[1], q[0], reader)
		if err != nil {
			return ans, err
		}
		ans.Inclusion = append(ans.Inclusion, hexes(p))
	}
	for _, q := range req.Consistency {
		p, err := tlog.ProveTree(q[1], q[0], reader)
		if err != nil {
			return ans, err
		}
		ans.Consistency = append(ans.Consistency, hexes(p))
	}
	return ans, nil
}

func run() error {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		return err
	}
	ans := answer{Trees: []treeAnswer{}, Sign: []string{}, Open: []openAnswer{}, Vkeys: []string{}}
	for _, t := range req.Trees {
		a, err := tree(t)
		if err != nil {
			return err
		}
		ans.Trees = append(ans.Trees, a)
	}
	for _, s := range req.Sign {
		signer, err := note.NewSigner(s.Skey)
		if err != nil {
			return err
		}
		msg, err := note.Sign(&note.Note{Text: s.Text}, signer)
		if err != nil {
			return err
		}
		ans.Sign = append(ans.Sign, string(msg))
	}
	for _, o := range req.Open {
		verifier, err := note.NewVerifier(o.Vkey)
		if err != nil {
			return err
		}
		n, err := note.Open([]byte(o.Note), note.VerifierList(verifier))
		if err != nil {
			ans.Open = append(ans.Open, openAnswer{OK: false})
		} else {
			ans.Open = append(ans.Open, openAnswer{OK: true, Text: n.Text})
		}
	}
	return json.NewEncoder(os.Stdout).Encode(ans)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "crosscheck:", err)
		os.Exit(1)
	}
}
