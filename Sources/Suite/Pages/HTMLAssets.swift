/// The inline style and script of every HTML page. The script only sorts, filters and pages the tables that
/// are already plain HTML and opens folded parts a link points into; it builds its controls itself, reads
/// cells as text and writes only text.
enum HTMLAssets {
    static let style = """
    body{font-family:system-ui,sans-serif;font-size:1rem;line-height:1.4;margin:1rem;color:#111;background:#fff}
    main{max-width:100%}
    h1{font-size:1.5rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #ccc}h3{font-size:1.05rem}
    table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.875rem;max-width:100%;display:block;overflow-x:auto}
    caption{text-align:left;font-weight:bold;padding:.25rem 0}
    th,td{border:1px solid #bbb;padding:.2rem .4rem;vertical-align:top;text-align:left;overflow-wrap:break-word;max-width:40rem}
    td:first-child,th:first-child{position:sticky;left:0;background:#fff}
    th,th:first-child{background:#eee}.num{text-align:right;font-variant-numeric:tabular-nums}td{white-space:nowrap}td.w{white-space:normal;min-width:14rem}
    li,p{overflow-wrap:anywhere}.yes{color:#135e13}.no{color:#a11}.note{color:#444;font-size:.875rem}
    .headline{border:2px solid #333;padding:.5rem 1rem;max-width:60rem}
    .verdict-pass{color:#135e13}.verdict-regression{color:#a11}
    figure{margin:.5rem 0}svg{max-width:100%;height:auto}
    form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:.5rem 0}
    th button{font:inherit;background:none;border:0;padding:0;cursor:pointer;text-align:inherit}
    tr[hidden],th[hidden],td[hidden],p[hidden]{display:none}
    details{margin:.5rem 0 1rem}summary{cursor:pointer;font-weight:bold;padding:.25rem 0}
    .pager{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}.pager button{font:inherit}
    @media print{form.filters,.pager,th button span{display:none}body{margin:0}table{page-break-inside:auto}tr{page-break-inside:avoid}}
    """

    static let script = """
    (function(){
    "use strict";
    function cellText(row,i){var c=row.cells[i];return c?c.textContent.trim():"";}
    function columnIndex(table,name){var hs=table.tHead.rows[0].cells;for(var i=0;i<hs.length;i++){if(hs[i].getAttribute("data-col")===name){return i;}}return -1;}
    function bodyRows(table){return Array.prototype.slice.call(table.tBodies[0].rows);}
    // A long table shows its matching rows a page at a time; `data-visible` is how many match, `data-page-size` the page.
    var PAGE=100;
    function pager(table,noun){
      var page=0,matched=[],nav=document.createElement("p"),where=document.createElement("span");
      function button(text,step){var b=document.createElement("button");b.type="button";b.textContent=text;
        b.addEventListener("click",function(){page+=step;show();});return b;}
      var previous=button("‹ previous",-1),next=button("next ›",1);
      nav.className="pager";nav.appendChild(previous);nav.appendChild(where);nav.appendChild(next);
      table.parentNode.insertBefore(nav,table.nextSibling);table.setAttribute("data-page-size",String(PAGE));
      function show(){
        var pages=Math.max(1,Math.ceil(matched.length/PAGE));page=Math.min(Math.max(page,0),pages-1);
        var from=page*PAGE,to=Math.min(matched.length,from+PAGE);
        matched.slice(from,to).forEach(function(r){r.hidden=false;r.setAttribute("data-on","1");});
        bodyRows(table).forEach(function(r){if(r.getAttribute("data-on")){r.removeAttribute("data-on");}else{r.hidden=true;}});
        table.setAttribute("data-visible",String(matched.length));
        nav.hidden=matched.length<=PAGE;previous.disabled=page===0;next.disabled=page>=pages-1;
        where.textContent=(from+1)+"–"+to+" of "+matched.length+" "+noun;
      }
      return function(rows){matched=rows;page=0;show();};
    }
    function sortable(table){
      var hs=table.tHead.rows[0].cells;
      Array.prototype.forEach.call(hs,function(th,i){
        var b=document.createElement("button");b.type="button";b.textContent=th.textContent;
        var mark=document.createElement("span");mark.setAttribute("aria-hidden","true");b.appendChild(mark);
        th.textContent="";th.appendChild(b);
        b.addEventListener("click",function(){
          var up=th.getAttribute("aria-sort")!=="ascending";
          Array.prototype.forEach.call(hs,function(h){h.removeAttribute("aria-sort");var m=h.querySelector("span");if(m){m.textContent="";}});
          th.setAttribute("aria-sort",up?"ascending":"descending");mark.textContent=up?" ▲":" ▼";
          var rows=bodyRows(table),num=th.classList.contains("num");
          rows.sort(function(a,b){var x=cellText(a,i),y=cellText(b,i);
            var r=num?((parseFloat(x)||0)-(parseFloat(y)||0)):x.localeCompare(y);return up?r:-r;});
          rows.forEach(function(r){table.tBodies[0].appendChild(r);});
          if(table.repage){table.repage();}
        });
      });
    }
    function filterable(table){
      var names=(table.getAttribute("data-filters")||"").split(" ").filter(Boolean);
      if(!names.length){return;}
      var form=document.createElement("form");form.className="filters";form.setAttribute("aria-label","Filter "+table.caption.textContent);
      var status=document.createElement("p");status.setAttribute("role","status");status.className="count";
      var selects=[];
      names.forEach(function(name){
        var i=columnIndex(table,name);if(i<0){return;}
        var values={};bodyRows(table).forEach(function(r){values[cellText(r,i)]=true;});
        var label=document.createElement("label");label.textContent=table.tHead.rows[0].cells[i].textContent+" ";
        var s=document.createElement("select");s.setAttribute("data-filter",name);
        var all=document.createElement("option");all.value="\\u0000all";all.textContent="(all)";s.appendChild(all);
        Object.keys(values).sort().forEach(function(v){var o=document.createElement("option");o.value=v;o.textContent=v===""?"(empty)":v;s.appendChild(o);});
        s.addEventListener("change",apply);label.appendChild(s);form.appendChild(label);selects.push([i,s]);
      });
      var page=pager(table,"rows");
      function apply(){
        var rows=bodyRows(table),matched=rows.filter(function(r){
          return (!table.rowTest||table.rowTest(r))&&selects.every(function(p){return p[1].value==="\\u0000all"||cellText(r,p[0])===p[1].value;});});
        page(matched);
        status.textContent=matched.length+" of "+rows.length+" rows match";
      }
      table.repage=apply;
      // A link "#<table id>?<filter>=<value>&…" (a heatmap cell's) sets these filters; the others show all.
      table.setFilters=function(values){selects.forEach(function(p){var v=values[p[1].getAttribute("data-filter")];
        p[1].value=v!==undefined&&Array.prototype.some.call(p[1].options,function(o){return o.value===v;})?v:"\\u0000all";});apply();};
      table.parentNode.insertBefore(form,table);table.parentNode.insertBefore(status,table);apply();
    }
    // A link "#<id>" or "#<table id>?<filter>=<value>&…" opens every folded part around its target first.
    function fromHash(){
      var h=location.hash.slice(1),q=h.indexOf("?");if(!h){return;}
      var t=document.getElementById(decodeURIComponent(q<0?h:h.slice(0,q)));if(!t){return;}
      for(var e=t;e;e=e.parentElement){if(e.tagName==="DETAILS"){e.open=true;}}
      if(q>=0&&t.setFilters){var values={};h.slice(q+1).split("&").forEach(function(p){var e=p.indexOf("=");
        if(e>0){values[decodeURIComponent(p.slice(0,e))]=decodeURIComponent(p.slice(e+1));}});t.setFilters(values);}
      t.scrollIntoView();
    }
    function sideBySide(table){
      var ALL="\\u0000all",heads=Array.prototype.slice.call(table.tHead.rows[0].cells);
      var form=document.createElement("form");form.className="filters";form.setAttribute("aria-label","Filter "+table.caption.textContent);
      var status=document.createElement("p");status.setAttribute("role","status");status.className="count";
      function unique(list){var seen={};return list.filter(function(v){if(v===""||seen[v]){return false;}seen[v]=true;return true;}).sort();}
      function choice(name,title,values){
        if(!values.length){return null;}
        var label=document.createElement("label");label.textContent=title+" ";
        var s=document.createElement("select");s.setAttribute("data-filter",name);
        [ALL].concat(values).forEach(function(v){var o=document.createElement("option");o.value=v;o.textContent=v===ALL?"(all)":v;s.appendChild(o);});
        s.addEventListener("change",apply);label.appendChild(s);form.appendChild(label);return s;
      }
      function flag(name,title){
        var label=document.createElement("label"),c=document.createElement("input");c.type="checkbox";c.setAttribute("data-filter",name);
        c.addEventListener("change",apply);label.appendChild(c);label.appendChild(document.createTextNode(" "+title));form.appendChild(label);return c;
      }
      var cellHeads=heads.filter(function(h){return h.hasAttribute("data-route");});
      var lang=choice("lang","language",unique(bodyRows(table).map(function(r){return r.getAttribute("data-lang")||"";})));
      var route=choice("route","route",unique(cellHeads.map(function(h){return h.getAttribute("data-route");})));
      var variant=choice("variant","variant",unique(cellHeads.map(function(h){return h.getAttribute("data-variant");})));
      var notServed=flag("not-served","not served"),fallback=flag("fallback","fallback");
      var differs=table.hasAttribute("data-reference")?flag("differs","differs from reference variant"):null;
      function picked(s,el,name){return !s||s.value===ALL||el.getAttribute(name)===s.value;}
      function shownCell(el){return picked(route,el,"data-route")&&picked(variant,el,"data-variant");}
      var page=pager(table,"items");
      function apply(){
        var rows=bodyRows(table),matched=[];
        cellHeads.forEach(function(h){h.hidden=!shownCell(h);});
        rows.forEach(function(r){
          var cells=Array.prototype.filter.call(r.cells,function(c){return c.hasAttribute("data-route");});
          cells.forEach(function(c){c.hidden=!shownCell(c);});
          var ok=cells.length>0&&picked(lang,r,"data-lang")&&cells.some(function(c){return shownCell(c)&&c.hasAttribute("data-outcome")
            &&(!notServed.checked||c.getAttribute("data-served")==="false")&&(!fallback.checked||c.getAttribute("data-outcome")==="fallback")
            &&(!differs||!differs.checked||c.getAttribute("data-differs")==="true");});
          if(ok){matched.push(r);}
        });
        page(matched);
        status.textContent=matched.length+" of "+rows.length+" items match";
      }
      table.repage=apply;
      table.parentNode.insertBefore(form,table);table.parentNode.insertBefore(status,table);apply();
    }
    // A section with "data-configs" shows one config's columns at a time (its "data-primary" first, or all), and its
    // differing-items table the items on which that config and one other chosen beside it answer differently.
    function configView(section){
      var ALL="\\u0000all",configs=JSON.parse(section.getAttribute("data-configs")),primary=section.getAttribute("data-primary");
      function owner(name){var best=null;configs.forEach(function(c){
        if((name===c||name.indexOf(c+"_")===0||name.slice(-c.length-1)===":"+c)&&(!best||c.length>best.length)){best=c;}});return best;}
      var form=document.createElement("form");form.className="filters";form.setAttribute("aria-label","Config shown");
      var label=document.createElement("label");label.textContent="config shown ";
      var view=document.createElement("select");view.setAttribute("data-view","config");
      configs.concat([ALL]).forEach(function(c){var o=document.createElement("option");o.value=c;
        o.textContent=c===ALL?"(all configs)":c+(c===primary?" (shipped)":"");view.appendChild(o);});
      view.value=primary;label.appendChild(view);form.appendChild(label);
      var heading=section.querySelector("h2");heading.parentNode.insertBefore(form,heading.nextSibling);
      var differing=document.getElementById("detection-items"),other=null;
      if(differing&&differing.repage){
        var l=document.createElement("label");l.textContent="compared with ";other=document.createElement("select");other.setAttribute("data-view","other");
        l.appendChild(other);differing.previousElementSibling.previousElementSibling.appendChild(l);
        other.addEventListener("change",show);
        differing.rowTest=function(r){if(view.value===ALL){return true;}
          var a=columnIndex(differing,"answer:"+view.value),b=columnIndex(differing,"answer:"+other.value);
          return a<0||b<0||cellText(r,a)!==cellText(r,b);};
      }
      function show(){
        var chosen=view.value;
        if(other){var keep=other.value;other.textContent="";configs.filter(function(c){return c!==chosen;}).forEach(function(c){
            var o=document.createElement("option");o.value=c;o.textContent=c;other.appendChild(o);});
          if(configs.indexOf(keep)>=0&&keep!==chosen){other.value=keep;}other.parentNode.hidden=chosen===ALL;}
        Array.prototype.forEach.call(section.querySelectorAll("table"),function(t){if(!t.tHead){return;}
          var heads=t.tHead.rows[0].cells,hide=[];
          Array.prototype.forEach.call(heads,function(h,i){var name=h.getAttribute("data-col")||"",c=owner(name);
            var shown=chosen===ALL||c===null||name.indexOf("flip:")===0||c===chosen||(t===differing&&other&&c===other.value);
            h.hidden=!shown;if(!shown){hide.push(i);}});
          bodyRows(t).forEach(function(r){Array.prototype.forEach.call(r.cells,function(cell,i){cell.hidden=hide.indexOf(i)>=0;});});});
        if(differing&&differing.repage){differing.repage();}
        var wrong=document.getElementById("detection-misdetected");if(wrong&&wrong.setFilters&&chosen!==ALL){wrong.setFilters({config:chosen});}
      }
      view.addEventListener("change",show);show();
    }
    Array.prototype.forEach.call(document.querySelectorAll("table"),function(t){if(t.tHead&&t.tBodies.length){sortable(t);
      if(t.hasAttribute("data-side-by-side")){sideBySide(t);}else{filterable(t);}}});
    Array.prototype.forEach.call(document.querySelectorAll("section[data-configs]"),configView);
    window.addEventListener("hashchange",fromHash);fromHash();
    // Printed, every folded part is open (each table still prints its current page).
    window.addEventListener("beforeprint",function(){Array.prototype.forEach.call(document.querySelectorAll("details"),function(d){d.open=true;});});
    })();
    """
}
