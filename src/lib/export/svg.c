// SPDX-License-Identifier: MIT
/*
 * A flame graph as one self-contained SVG: frames are <g> elements with
 * their position as fractions of the whole (data-x, data-w) and their
 * depth, so the small inline script can zoom on click, search by regular
 * expression and show counts in tooltips with nothing fetched.  Every
 * name is XML-escaped; the script reads them back from the DOM, never
 * from string concatenation into markup.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "export_internal.h"

#define WIDTH	     1200
#define FRAME_H	     16
#define PAD_TOP	     50
#define PAD_BOTTOM   30
#define MIN_WIDTH_PX 0.1

struct svg_ctx {
	struct pk_profile *p;
	struct pki_flame *fl;
	FILE *out;
	uint32_t max_depth;
	uint64_t total;
	int height;
};

static uint32_t depth_of(const struct pki_flame *fl, uint32_t n)
{
	uint32_t best = 0;

	for (uint32_t c = fl->nodes[n].first_child; c != PKI_NONE; c = fl->nodes[c].next_sibling) {
		uint32_t d = depth_of(fl, c) + 1;

		if (d > best)
			best = d;
	}
	return best;
}

/* A warm colour from the name, stable across runs (flame graph style). */
static void colour(const char *name, int *r, int *g, int *b)
{
	uint32_t h = pki_hash_bytes(name, strlen(name), 0);

	*r = 205 + (int)(h % 50);
	*g = (int)((h >> 8) % 180);
	*b = (int)((h >> 16) % 55);
}

static const struct pki_flame *sort_fl;
static const struct pk_profile *sort_p;

static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(pki_str(sort_p, sort_fl->nodes[*(const uint32_t *)a].name),
		      pki_str(sort_p, sort_fl->nodes[*(const uint32_t *)b].name));
}

/* The label as it fits the frame (about 7 px a character), so that the
 * SVG reads right even where scripts do not run (an <img>, a viewer). */
static void write_label(FILE *out, const char *name, double px)
{
	size_t fit = px > 6 ? (size_t)((px - 6) / 7) : 0, len = strlen(name);
	char buf[256];

	if (fit < 3)
		return;
	if (len <= fit) {
		pki_xml_str(out, name);
		return;
	}
	if (fit - 2 >= sizeof(buf))
		fit = sizeof(buf) - 1 + 2;
	/* cut on a UTF-8 character boundary */
	len = fit - 2;
	while (len > 0 && ((unsigned char)name[len] & 0xc0) == 0x80)
		len--;
	memcpy(buf, name, len);
	buf[len] = '\0';
	pki_xml_str(out, buf);
	fputs("..", out);
}

static void write_frame(struct svg_ctx *c, uint32_t n, double x, uint32_t depth)
{
	const struct pki_fnode *f = &c->fl->nodes[n];
	const char *name = pki_str(c->p, f->name);
	double w = (double)f->value / (double)c->total, y;
	int r, g, b;

	if (w * WIDTH < MIN_WIDTH_PX)
		return;
	y = c->height - PAD_BOTTOM - (double)(depth + 1) * FRAME_H;
	colour(name, &r, &g, &b);
	fprintf(c->out,
		"<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\" data-v=\"%llu\">"
		"<title>",
		x, w, depth, (unsigned long long)f->value);
	pki_xml_str(c->out, name);
	fprintf(c->out,
		" (%llu samples, %.2f%%)</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%d\" rx=\"2\" fill=\"rgb(%d,%d,%d)\"/><text x=\"%.2f\" y=\"%.1f\">",
		(unsigned long long)f->value, 100.0 * w, x * (WIDTH - 20) + 10, y, w * (WIDTH - 20),
		FRAME_H - 1, r, g, b, x * (WIDTH - 20) + 13, y + FRAME_H - 4);
	write_label(c->out, name, w * (WIDTH - 20));
	fputs("</text></g>\n", c->out);
}

static int write_tree(struct svg_ctx *c, uint32_t n, double x, uint32_t depth)
{
	uint32_t nr = 0, *kids;

	write_frame(c, n, x, depth);
	for (uint32_t k = c->fl->nodes[n].first_child; k != PKI_NONE;
	     k = c->fl->nodes[k].next_sibling)
		nr++;
	if (!nr)
		return 0;
	kids = malloc(nr * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	nr = 0;
	for (uint32_t k = c->fl->nodes[n].first_child; k != PKI_NONE;
	     k = c->fl->nodes[k].next_sibling)
		kids[nr++] = k;
	sort_fl = c->fl;
	sort_p = c->p;
	qsort(kids, nr, sizeof(*kids), cmp_by_name);
	for (uint32_t i = 0; i < nr; i++) {
		if (write_tree(c, kids[i], x, depth + 1)) {
			free(kids);
			return -ENOMEM;
		}
		x += (double)c->fl->nodes[kids[i]].value / (double)c->total;
	}
	free(kids);
	return 0;
}

/* The inline script: plain DOM, textContent only (no innerHTML). */
static const char svg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var W="
	"1200"
	",FH=16,frames=[],details,zoomed=null,matchtext;\n"
	"function init(){frames=Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
	" details=document.getElementById('details');matchtext=document.getElementById('matched');"
	"\n"
	" frames.forEach(function(g){g.addEventListener('click',function(){zoom(g);});\n"
	"  "
	"g.addEventListener('mouseover',function(){details.textContent=g.querySelector('title')."
	"textContent;});\n"
	"  g.addEventListener('mouseout',function(){details.textContent=' ';});});\n"
	" document.getElementById('reset').addEventListener('click',function(){zoom(null);});\n"
	" document.getElementById('search').addEventListener('click',function(){\n"
	"  var t=prompt('Search frames (regular expression):','');if(t!==null)search(t);});\n"
	" layout(0,1,0);}\n"
	"function name(g){var t=g.querySelector('title').textContent;return t.replace(/ \\([0-9]+ "
	"samples, [0-9.]+%\\)$/,'');}\n"
	"function layout(x0,w0,d0){frames.forEach(function(g){\n"
	"  var "
	"x=+g.dataset.x,w=+g.dataset.w,d=+g.dataset.d,r=g.querySelector('rect'),tx=g.querySelector("
	"'text');\n"
	"  var inside=x>=x0-1e-12&&x+w<=x0+w0+1e-12;\n"
	"  if(d<d0&&x<=x0+1e-12&&x+w>=x0+w0-1e-12){x=x0;w=w0;g.style.opacity='0.5';}\n"
	"  else if(!inside||d<d0){g.style.display='none';return;} else g.style.opacity='';\n"
	"  g.style.display='';var px=(x-x0)/w0*(W-20)+10,pw=w/w0*(W-20);\n"
	"  r.setAttribute('x',px);r.setAttribute('width',pw);tx.setAttribute('x',px+3);\n"
	"  var "
	"n=name(g),fit=Math.floor((pw-6)/"
	"7);tx.textContent=fit<3?'':(n.length<=fit?n:n.slice(0,fit-2)+'..');});}\n"
	"function "
	"zoom(g){zoomed=g;if(!g){layout(0,1,0);return;}layout(+g.dataset.x,+g.dataset.w,+g.dataset."
	"d);}\n"
	"function search(t){var re;try{re=new RegExp(t);}catch(e){matchtext.textContent='bad "
	"regex';return;}\n"
	" var tot=0,root=0,seen=[];frames.forEach(function(g){var r=g.querySelector('rect');\n"
	"  if(+g.dataset.d===0)root=+g.dataset.v;\n"
	"  "
	"if(t!==''&&re.test(name(g))){if(!r.dataset.o)r.dataset.o=r.getAttribute('fill');r."
	"setAttribute('fill','rgb(230,0,230)');\n"
	"   g.classList.add('match');var x=+g.dataset.x,w=+g.dataset.w;\n"
	"   if(!seen.some(function(s){return "
	"x>=s[0]&&x+w<=s[0]+s[1]+1e-12;})){seen.push([x,w]);tot+=+g.dataset.v;}}\n"
	"  "
	"else{if(r.dataset.o)r.setAttribute('fill',r.dataset.o);g.classList.remove('match');}});\n"
	" matchtext.textContent=t===''?' ':'Matched: '+(root?(100*tot/root).toFixed(1):0)+'%';}\n"
	"window.addEventListener('load',init);\n"
	"]]></script>\n";

int pk_export_svg(struct pk_profile *p, FILE *out)
{
	struct pki_flame fl;
	struct svg_ctx c = {.p = p, .fl = &fl, .out = out};
	int err;

	if (pki_flame_build(p, &fl, p->first_event, false, true)) {
		pki_profile_fail(p, "flamegraph: out of memory");
		return -ENOMEM;
	}
	c.total = fl.nodes[0].value ? fl.nodes[0].value : 1;
	c.max_depth = depth_of(&fl, 0);
	c.height = PAD_TOP + PAD_BOTTOM + (int)(c.max_depth + 1) * FRAME_H;
	fprintf(out,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000;"
		"pointer-events:none}g.f:hover rect{stroke:#000;stroke-width:0.5}"
		"#title{font-size:17px;text-anchor:middle}.btn{cursor:pointer;fill:#333}"
		"</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text id=\"title\" x=\"%d\" y=\"24\">Flame Graph: ",
		c.height > 0 ? WIDTH : WIDTH, c.height, WIDTH, c.height, WIDTH / 2);
	pki_xml_str(out, p->title ? p->title : "perfkit");
	fputs(p->nr_events ? " (" : "", out);
	if (p->nr_events && p->first_event != PKI_NONE)
		pki_xml_str(out, pki_str(p, p->events[p->first_event].name));
	fputs(p->nr_events ? ")" : "", out);
	fprintf(out,
		"</text>\n<text id=\"reset\" class=\"btn\" x=\"10\" y=\"24\" "
		"style=\"pointer-events:all\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"btn\" x=\"%d\" y=\"24\" "
		"style=\"pointer-events:all\">Search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"details\" x=\"10\" y=\"%d\"> </text>\n",
		WIDTH - 60, WIDTH - 160, c.height - 10, c.height - 10);
	fputs(svg_script, out);
	err = write_tree(&c, 0, 0.0, 0);
	fputs("</svg>\n", out);
	pki_flame_free(&fl);
	if (err) {
		pki_profile_fail(p, "flamegraph: out of memory");
		return err;
	}
	return pki_export_finish(p, out);
}
