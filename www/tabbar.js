// What this tab's part is among the open tabs of the playground, said
// plainly at the top of the page, with the two ways out of being separate:
// take the saved state over (asked first: the other tab's saved work is
// replaced by this tab's) or follow the other tab again (asked first: this
// tab's own changes are dropped).
import { $, clock, fill, h } from "./dom.js";

export function mountTabBar(store) {
  const bar = $("#tabs");

  function ask(question, yes, onYes) {
    const keep = [...bar.childNodes];
    const confirm = h("span", { class: "confirm", role: "group", "aria-label": question },
      h("strong", null, `${question} `),
      h("button", { type: "button", id: "tabs-confirm", class: "danger", onclick: () => onYes() }, yes), " ",
      h("button", { type: "button", class: "secondary", onclick: () => { fill(bar, ...keep); } }, "Cancel"));
    fill(bar, confirm);
    $("#tabs-confirm").focus();
  }

  function show() {
    const { role, reason } = store.tabs;
    bar.dataset.role = role;
    bar.dataset.reason = reason;
    if (role === "owner") {
      bar.hidden = reason === "alone" || reason === "first";
      fill(bar, reason === "handed-over" ? "The other tab closed: this tab now saves the state, and has loaded what that tab saved last."
        : reason === "took-over" ? "This tab took the saved state over: what it has now is saved, and the other tab is told it is separate."
          : "");
      return;
    }
    bar.hidden = false;
    if (role === "follower") {
      const at = store.saved.at ? ` (last saved at ${clock(store.saved.at).slice(0, 8)})` : "";
      fill(bar, h("strong", null, "Another tab owns this playground's saved state. "),
        `This tab follows it: it shows what that tab saves${at}. A request or change made here turns this tab into a separate service that is not saved.`);
      return;
    }
    fill(bar,
      h("strong", null, "This tab is a separate service: nothing done here is saved. "),
      reason === "taken-over" ? "Another tab took the saved state over. " : "Another tab owns the state saved in this browser, and this tab was changed on its own. ",
      "Export the state to keep it, or ",
      h("button", { type: "button", id: "take-over", class: "secondary", onclick: () => ask("Replace the state the other tab saved with this tab's?", "Yes, save this tab's state", () => store.tabs.takeOver()) }, "take over saving here"),
      " or ",
      h("button", { type: "button", id: "follow-again", class: "secondary", onclick: () => ask("Drop this tab's changes and show the other tab's state?", "Yes, follow the other tab", () => store.tabs.follow()) }, "follow the other tab again"),
      ".",
    );
  }

  store.tabs.addEventListener("role", show);
  store.addEventListener("saved", () => { if (store.tabs.role === "follower") show(); });
  show();
}
