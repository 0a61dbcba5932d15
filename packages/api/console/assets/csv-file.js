// The items page's CSV import: a chosen file is read into the form's text area (the form posts text, so no upload parser is needed).
const input = document.getElementById("csv-file");
const area = document.getElementById("csv");
input?.addEventListener("change", async () => {
  const file = input.files?.[0];
  if (file && area) area.value = await file.text();
});
