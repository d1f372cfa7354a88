// A client of runledger's C2SP tlog-tiles, written with Go's checksum-database code
// (golang.org/x/mod/sumdb/tlog and .../note): it reads a log's checkpoint and tiles over HTTP
// through a tlog.TileReader, checks the checkpoint's signature, and prints the roots and proofs it
// computes, for the test to compare with runledger's own. Reads one JSON request on stdin.
// GOPATH mode: GO111MODULE=off GOPATH=/usr/share/gocode go run main.go
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type request struct {
	Prefix      string  `json:"prefix"` // .../tlog/<org>/<log>/
	Token       string  `json:"token"`
	Vkey        string  `json:"vkey"`
	Inclusion   []int64 `json:"inclusion"`   // leaf indexes, proven in the checkpoint's tree
	Consistency []int64 `json:"consistency"` // earlier sizes, proven against the checkpoint's tree
	Roots       []int64 `json:"roots"`       // sizes whose root to compute
}

type answer struct {
	Size        int64      `json:"size"`
	Root        string     `json:"root_hex"`
	Roots       []string   `json:"roots"`
	Inclusion   [][]string `json:"inclusion"`
	Consistency [][]string `json:"consistency"`
	Entries     int64      `json:"entries_checked"`
	Fetched     []string   `json:"fetched"`
}

type reader struct {
	req     request
	fetched []string
}

func (r *reader) get(path string) []byte {
	hreq, err := http.NewRequest("GET", r.req.Prefix+path, nil)
	check(err)
	hreq.Header.Set("Authorization", "Bearer "+r.req.Token)
	resp, err := http.DefaultClient.Do(hreq)
	check(err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	check(err)
	if resp.StatusCode != 200 {
		check(fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, body))
	}
	r.fetched = append(r.fetched, path)
	return body
}

// C2SP paths drop sumdb's tile height element: tile/8/L/N → tile/L/N.
func c2spPath(t tlog.Tile) string {
	return "tile/" + strings.TrimPrefix(t.Path(), "tile/8/")
}

func (r *reader) Height() int { return 8 }

func (r *reader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		out[i] = r.get(c2spPath(t))
	}
	return out, nil
}

func (r *reader) SaveTiles([]tlog.Tile, [][]byte) {}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func hexes(hs []tlog.Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = hex.EncodeToString(h[:])
	}
	return out
}

// The checkpoint, opened with the log's key by Go's note package: origin, size, root.
func openCheckpoint(r *reader) tlog.Tree {
	verifier, err := note.NewVerifier(r.req.Vkey)
	check(err)
	n, err := note.Open(r.get("checkpoint"), note.VerifierList(verifier))
	check(err)
	lines := strings.Split(n.Text, "\n")
	size, err := strconv.ParseInt(lines[1], 10, 64)
	check(err)
	root, err := tlog.ParseHash(lines[2])
	check(err)
	return tlog.Tree{N: size, Hash: root}
}

// Every entry bundle of the tree: each entry hashes to its leaf in the level-0 tiles.
func checkEntries(r *reader, tree tlog.Tree, thr tlog.HashReader) int64 {
	var checked int64
	for start := int64(0); start < tree.N; start += 256 {
		w := tree.N - start
		path := "tile/entries/" + strings.TrimPrefix(tlog.Tile{H: 8, L: 0, N: start / 256, W: 256}.Path(), "tile/8/0/")
		if w < 256 {
			path = "tile/entries/" + strings.TrimPrefix(tlog.Tile{H: 8, L: 0, N: start / 256, W: int(w)}.Path(), "tile/8/0/")
		} else {
			w = 256
		}
		data := r.get(path)
		indexes := make([]int64, w)
		for i := range indexes {
			indexes[i] = tlog.StoredHashIndex(0, start+int64(i))
		}
		leaves, err := thr.ReadHashes(indexes)
		check(err)
		for i := int64(0); i < w; i++ {
			size := int(binary.BigEndian.Uint16(data))
			entry := data[2 : 2+size]
			data = data[2+size:]
			if tlog.RecordHash(entry) != leaves[i] {
				check(fmt.Errorf("entry %d does not hash to its leaf", start+i))
			}
			checked++
		}
		if len(data) != 0 {
			check(fmt.Errorf("bundle %s has trailing bytes", path))
		}
	}
	return checked
}

func main() {
	var req request
	check(json.NewDecoder(os.Stdin).Decode(&req))
	r := &reader{req: req}
	tree := openCheckpoint(r)
	thr := tlog.TileHashReader(tree, r)
	ans := answer{Size: tree.N, Root: hex.EncodeToString(tree.Hash[:])}
	for _, n := range req.Roots {
		h, err := tlog.TreeHash(n, thr)
		check(err)
		ans.Roots = append(ans.Roots, hex.EncodeToString(h[:]))
	}
	for _, i := range req.Inclusion {
		p, err := tlog.ProveRecord(tree.N, i, thr)
		check(err)
		ans.Inclusion = append(ans.Inclusion, hexes(p))
	}
	for _, n := range req.Consistency {
		p, err := tlog.ProveTree(tree.N, n, thr)
		check(err)
		ans.Consistency = append(ans.Consistency, hexes(p))
	}
	ans.Entries = checkEntries(r, tree, thr)
	ans.Fetched = r.fetched
	var out bytes.Buffer
	check(json.NewEncoder(&out).Encode(ans))
	os.Stdout.Write(out.Bytes())
}
