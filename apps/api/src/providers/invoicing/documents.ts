import { formatRate, formatRateBR } from '@passada/core/fiscal/ibs-cbs';
import { CRT_OF_REGIME } from '@passada/core/fiscal/reform-rules';
import bwip from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import { collectPdf } from '../../plugins/pdf.ts';
import { formatAccessKey } from './access-key.ts';
import type { FiscalAddress, NfeEventInput, NfeInput, NfeItem, NfseInput } from './invoicing.provider.ts';

/**
 * The offline provider's files: a DANFE-like PDF (with the key's Code 128C barcode) and an NF-e XML in
 * the layout 4.00 shape, unsigned, and the same for the NFS-e. Every page says "SEM VALOR FISCAL".
 * Drawn with pdfkit, like the shipping labels (docs/decisions/0048).
 */

const money = (cents: number) =>
  (cents / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const decimal = (cents: number) => (cents / 100).toFixed(2);
const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The standard PDF fonts speak WinAnsi: keep accents, drop what it cannot show. */
const ansi = (s: string) => s.replace(/[^\x20-\x7E\u00A0-\u00FF]/g, '?');
const brasilia = (d: Date) => {
  const local = new Date(d.getTime() - 3 * 3_600_000);
  return `${local.toISOString().slice(0, 19)}-03:00`;
};
const dateBr = (d: Date) => brasilia(d).slice(0, 10).split('-').reverse().join('/');
const addressLine = (a: FiscalAddress) =>
  `${a.street}, ${a.number}${a.complement ? `, ${a.complement}` : ''} - ${a.district} - ${a.city}/${a.uf} - CEP ${a.cep.replace(/^(\d{5})(\d{3})$/, '$1-$2')}`;

// A4 in PDF points. The layout below counts `y` up from the bottom of the page to each text's
// baseline, as the PDF itself does; pdfkit places text by the top of its line, from the top.
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
/** Helvetica's ascender, in em: how far the top of a line sits above its baseline. */
const ASCENT = 0.718;
const fromTop = (y: number, size = 0) => PAGE_HEIGHT - y - ASCENT * size;

/** Code 128 (set C for the 44 digits) drawn as vector bars; `y` is the bottom of the bars. */
function drawBarcode(
  doc: PDFKit.PDFDocument,
  digits: string,
  x: number,
  y: number,
  width: number,
  height: number,
) {
  const [symbol] = bwip.raw('code128', digits, {}) as Array<{ sbs: number[] }>;
  if (!symbol) return;
  const modules = symbol.sbs.reduce((a, b) => a + b, 0);
  const unit = width / modules;
  let at = x;
  symbol.sbs.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(at, fromTop(y + height), w * unit, height).fill('#000000');
    at += w * unit;
  });
}

interface Writer {
  doc: PDFKit.PDFDocument;
  y: number;
}

function text(w: Writer, s: string, x: number, size = 9, bold = false) {
  w.doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .fillColor('#000000')
    .text(ansi(s), x, fromTop(w.y, size), { lineBreak: false });
}

function box(w: Writer, label: string, value: string, x: number, width: number, height = 24) {
  w.doc
    .lineWidth(0.6)
    .rect(x, fromTop(w.y - height + 10 + height), width, height)
    .stroke('#000000');
  w.doc
    .font('Helvetica')
    .fontSize(5.5)
    .fillColor('#000000')
    .text(ansi(label.toUpperCase()), x + 3, fromTop(w.y + 2, 5.5), { lineBreak: false });
  w.doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .text(ansi(value), x + 3, fromTop(w.y - 9, 8.5), { width: width - 6, height: 10, ellipsis: true });
}

/** One A4 page with the watermark across it; `finish` ends the document and answers its bytes. */
function start(title: string, keywords: string): { w: Writer; finish: () => Promise<Buffer> } {
  const doc = new PDFDocument({ size: [PAGE_WIDTH, PAGE_HEIGHT], margin: 0 });
  doc.info.Title = title;
  doc.info.Subject = 'SEM VALOR FISCAL';
  doc.info.Keywords = keywords;
  doc.info.Producer = 'Passada';
  doc.info.Creator = 'Passada (emissor de demonstração)';
  const finish = collectPdf(doc);
  // The watermark, across the page (turned 35° up from its baseline's start).
  doc.save();
  doc.rotate(-35, { origin: [90, fromTop(300)] });
  doc
    .font('Helvetica-Bold')
    .fontSize(60)
    .fillColor('#d91a1a', 0.25)
    .text('SEM VALOR FISCAL', 90, fromTop(300, 60), { lineBreak: false });
  doc.restore();
  doc.fillOpacity(1);
  return {
    w: { doc, y: 800 },
    finish,
  };
}

export async function nfePdf(input: NfeInput, key: string, protocol: string): Promise<Buffer> {
  const { w, finish } = start(`DANFE ${input.number}`, key);
  text(w, 'SEM VALOR FISCAL - documento de demonstração, não enviado à SEFAZ', 40, 9, true);
  w.y -= 22;
  text(w, 'DANFE', 40, 16, true);
  text(w, 'Documento Auxiliar da Nota Fiscal Eletrônica', 110, 9);
  w.y -= 14;
  text(
    w,
    `${input.purpose === 4 ? '0 - ENTRADA (devolução)' : input.purpose === 5 ? '0 - ENTRADA (nota de crédito)' : '1 - SAÍDA'}   Nº ${String(input.number).padStart(9, '0')}   SÉRIE ${input.series}`,
    40,
    9,
    true,
  );
  w.y -= 16;
  text(w, ansi(input.emitter.name), 40, 11, true);
  w.y -= 12;
  text(w, addressLine(input.emitter.address), 40, 8);
  w.y -= 12;
  text(w, `CNPJ ${input.emitter.cnpj}   IE ${input.emitter.ie}`, 40, 8);
  w.y -= 50;
  drawBarcode(w.doc, key, 40, w.y, 330, 40);
  w.y -= 14;
  text(w, 'CHAVE DE ACESSO', 40, 6);
  w.y -= 11;
  text(w, formatAccessKey(key), 40, 10, true);
  w.y -= 12;
  text(w, `PROTOCOLO DE AUTORIZAÇÃO ${protocol} - ${dateBr(input.issuedAt)}`, 40, 8);
  w.y -= 24;
  box(w, 'Natureza da operação', input.operation, 40, 330);
  box(w, 'Data de emissão', dateBr(input.issuedAt), 375, 180);
  w.y -= 30;
  text(w, 'DESTINATÁRIO', 40, 7, true);
  w.y -= 12;
  box(w, 'Nome', input.recipient.name, 40, 370);
  box(w, 'CPF', input.recipient.cpf, 415, 140);
  w.y -= 28;
  if (input.recipient.address) box(w, 'Endereço', addressLine(input.recipient.address), 40, 515);
  w.y -= 30;
  if (input.referencedKey) {
    text(w, `NF-e referenciada: ${formatAccessKey(input.referencedKey)}`, 40, 8, true);
    w.y -= 16;
  }
  text(w, 'PRODUTOS', 40, 7, true);
  w.y -= 12;
  const cols = [40, 90, 300, 345, 375, 405, 440, 490];
  for (const [i, h] of [
    'CÓDIGO',
    'DESCRIÇÃO',
    'NCM',
    'O/CST',
    'CFOP',
    'QTD',
    'V. UNIT',
    'V. TOTAL',
  ].entries())
    text(w, h, cols[i]!, 6, true);
  for (const item of input.items) {
    w.y -= 12;
    const values = [
      item.code,
      item.description.slice(0, 45),
      item.ncm,
      `${item.origin}${item.icmsSituation}`,
      item.cfop,
      String(item.quantity),
      money(item.unitCents),
      money(item.totalCents),
    ];
    for (const [i, v] of values.entries()) text(w, v, cols[i]!, 7);
  }
  w.y -= 26;
  box(w, 'Valor dos produtos', money(input.items.reduce((s, i) => s + i.totalCents, 0)), 40, 125);
  box(w, 'Frete', money(input.shippingCents), 170, 125);
  box(w, 'Desconto', money(input.discountCents), 300, 125);
  box(w, 'Valor total da nota', money(input.totalCents), 430, 125);
  const t = input.ibsCbsTotals;
  const rates = input.items.find((i) => i.ibsCbs)?.ibsCbs;
  if (t && rates) {
    // The reform's taxes (NT 2025.002-RTC): shown apart; in 2026 they are not added to the nota's total.
    w.y -= 34;
    text(w, 'IBS E CBS (REFORMA TRIBUTÁRIA)', 40, 7, true);
    w.y -= 12;
    box(w, 'Base de cálculo IBS/CBS', money(t.baseCents), 40, 125);
    box(w, `IBS da UF (${formatRateBR(rates.ibsUfRate)})`, money(t.ibsUfCents), 170, 125);
    box(w, `IBS do município (${formatRateBR(rates.ibsMunRate)})`, money(t.ibsMunCents), 300, 125);
    box(w, `CBS (${formatRateBR(rates.cbsRate)})`, money(t.cbsCents), 430, 125);
  }
  w.y -= 40;
  text(w, 'Emitida pelo emissor de demonstração da loja: SEM VALOR FISCAL.', 40, 8);
  return finish();
}

/** An item's `IBSCBS` group (NT 2025.002-RTC v1.30, tributação integral). */
function ibsCbsXml(g: NonNullable<NfeItem['ibsCbs']>): string {
  return `<IBSCBS><CST>${g.situation}</CST><cClassTrib>${g.classification}</cClassTrib><gIBSCBS><vBC>${decimal(g.baseCents)}</vBC><gIBSUF><pIBSUF>${formatRate(g.ibsUfRate)}</pIBSUF><vIBSUF>${decimal(g.ibsUfCents)}</vIBSUF></gIBSUF><gIBSMun><pIBSMun>${formatRate(g.ibsMunRate)}</pIBSMun><vIBSMun>${decimal(g.ibsMunCents)}</vIBSMun></gIBSMun><vIBS>${decimal(g.ibsCents)}</vIBS><gCBS><pCBS>${formatRate(g.cbsRate)}</pCBS><vCBS>${decimal(g.cbsCents)}</vCBS></gCBS></gIBSCBS></IBSCBS>`;
}

/** The nota's `IBSCBSTot`: the sums of the items' groups. */
function ibsCbsTotXml(t: NonNullable<NfeInput['ibsCbsTotals']>): string {
  const zero = '<vDif>0.00</vDif><vDevTrib>0.00</vDevTrib>';
  const credit = '<vCredPres>0.00</vCredPres><vCredPresCondSus>0.00</vCredPresCondSus>';
  return `<IBSCBSTot><vBCIBSCBS>${decimal(t.baseCents)}</vBCIBSCBS><gIBS><gIBSUF>${zero}<vIBSUF>${decimal(t.ibsUfCents)}</vIBSUF></gIBSUF><gIBSMun>${zero}<vIBSMun>${decimal(t.ibsMunCents)}</vIBSMun></gIBSMun><vIBS>${decimal(t.ibsCents)}</vIBS>${credit}</gIBS><gCBS>${zero}<vCBS>${decimal(t.cbsCents)}</vCBS>${credit}</gCBS></IBSCBSTot>`;
}

export function nfeXml(input: NfeInput, key: string, protocol: string): string {
  const e = input.emitter;
  const addr = (a: FiscalAddress, tag: string) =>
    `<${tag}><xLgr>${esc(a.street)}</xLgr><nro>${esc(a.number)}</nro>${a.complement ? `<xCpl>${esc(a.complement)}</xCpl>` : ''}<xBairro>${esc(a.district)}</xBairro><cMun>${a.cityCode}</cMun><xMun>${esc(a.city)}</xMun><UF>${a.uf}</UF><CEP>${a.cep}</CEP></${tag}>`;
  const crt = CRT_OF_REGIME[e.regime];
  // The ICMS group by CRT (NF-e manual, ICMSSN): CSOSN for Simples Nacional (1) and MEI (4, NT 2024.001);
  // CST for the regime normal and for Simples over the sub-limit, which pays ICMS outside the Simples.
  const icmsTag = crt === 1 || crt === 4 ? 'CSOSN' : 'CST';
  // A nota de crédito (finNFe 5, NT 2025.002-RTC): an entry whose items carry only the IBSCBS group.
  const credit = input.purpose === 5;
  const items = input.items
    .map(
      (it, i) =>
        `<det nItem="${i + 1}"><prod><cProd>${esc(it.code)}</cProd><xProd>${esc(it.description)}</xProd><NCM>${it.ncm}</NCM><CFOP>${it.cfop}</CFOP><uCom>UN</uCom><qCom>${it.quantity.toFixed(4)}</qCom><vUnCom>${decimal(it.unitCents)}</vUnCom><vProd>${decimal(it.totalCents)}</vProd>${it.shippingCents ? `<vFrete>${decimal(it.shippingCents)}</vFrete>` : ''}${it.discountCents ? `<vDesc>${decimal(it.discountCents)}</vDesc>` : ''}<indTot>1</indTot></prod><imposto>${credit ? '' : `<ICMS><orig>${it.origin}</orig><${icmsTag}>${it.icmsSituation}</${icmsTag}></ICMS><PIS><CST>${it.pisSituation}</CST></PIS><COFINS><CST>${it.cofinsSituation}</CST></COFINS>`}${it.ibsCbs ? ibsCbsXml(it.ibsCbs) : ''}</imposto></det>`,
    )
    .join('');
  const ref = input.referencedKey ? `<NFref><refNFe>${input.referencedKey}</refNFe></NFref>` : '';
  const products = input.items.reduce((s, i) => s + i.totalCents, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- SEM VALOR FISCAL: emitida pelo emissor de demonstração, nunca enviada à SEFAZ. -->
<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe><infNFe Id="NFe${key}" versao="4.00"><ide><cUF>${key.slice(0, 2)}</cUF><cNF>${key.slice(35, 43)}</cNF><natOp>${esc(input.operation)}</natOp><mod>55</mod><serie>${input.series}</serie><nNF>${input.number}</nNF><dhEmi>${brasilia(input.issuedAt)}</dhEmi><tpNF>${input.purpose === 1 ? 1 : 0}</tpNF><tpEmis>1</tpEmis><cDV>${key[43]}</cDV><tpAmb>2</tpAmb><finNFe>${input.purpose}</finNFe>${input.creditType ? `<tpNFCredito>${input.creditType}</tpNFCredito>` : ''}<indFinal>1</indFinal>${input.operationIndicator ? `<cIndOp>${input.operationIndicator}</cIndOp>` : ''}${ref}</ide><emit><CNPJ>${e.cnpj}</CNPJ><xNome>${esc(e.name)}</xNome>${addr(e.address, 'enderEmit')}<IE>${e.ie}</IE><CRT>${crt}</CRT></emit><dest><CPF>${input.recipient.cpf}</CPF><xNome>${esc(input.recipient.name)}</xNome>${input.recipient.address ? addr(input.recipient.address, 'enderDest') : ''}<indIEDest>9</indIEDest></dest>${items}<total><ICMSTot><vProd>${decimal(products)}</vProd><vFrete>${decimal(input.shippingCents)}</vFrete><vDesc>${decimal(input.discountCents)}</vDesc><vNF>${decimal(input.totalCents)}</vNF></ICMSTot>${input.ibsCbsTotals ? ibsCbsTotXml(input.ibsCbsTotals) : ''}</total></infNFe></NFe><protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><chNFe>${key}</chNFe><nProt>${protocol}</nProt><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe></nfeProc>
`;
}

/** `descEvento` of event 112130 (NT 2025.002-RTC v1.31 §8.16, P19). */
export const LOSS_EVENT_DESCRIPTION =
  'Perecimento, perda, roubo ou furto durante o transporte contratado pelo fornecedor';

/**
 * An event on an NF-e as SEFAZ keeps it (`procEventoNFe`: the event, unsigned here, and SEFAZ's answer
 * 135): the general part of the MOC's event web service (Id "ID" + tpEvento + key + nSeqEvento) and, for
 * 112130, one `gPerecimento` per item with its `gControleEstoque` (NT 2025.002-RTC v1.31 §8.16).
 */
export function nfeEventXml(input: NfeEventInput, protocol: string): string {
  const uf = input.accessKey.slice(0, 2);
  const seq = String(input.sequence).padStart(2, '0');
  const when = brasilia(input.issuedAt);
  const items = input.items
    .map(
      (i) =>
        `<gPerecimento nItem="${i.item}"><vIBS>${decimal(i.ibsCents)}</vIBS><vCBS>${decimal(i.cbsCents)}</vCBS><gControleEstoque><qPerecimento>${i.quantity.toFixed(4)}</qPerecimento><uPerecimento>${esc(i.unit)}</uPerecimento><vIBS>${decimal(i.purchaseIbsCents)}</vIBS><vCBS>${decimal(i.purchaseCbsCents)}</vCBS></gControleEstoque></gPerecimento>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<procEventoNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00"><evento versao="1.00"><infEvento Id="ID${input.type}${input.accessKey}${seq}"><cOrgao>${uf}</cOrgao><tpAmb>2</tpAmb><CNPJ>${input.emitter.cnpj}</CNPJ><chNFe>${input.accessKey}</chNFe><dhEvento>${when}</dhEvento><tpEvento>${input.type}</tpEvento><nSeqEvento>${input.sequence}</nSeqEvento><verEvento>1.00</verEvento><detEvento versao="1.00"><descEvento>${LOSS_EVENT_DESCRIPTION}</descEvento><cOrgaoAutor>${uf}</cOrgaoAutor><tpAutor>1</tpAutor><verAplic>Passada</verAplic>${items}</detEvento></infEvento></evento><retEvento versao="1.00"><infEvento><tpAmb>2</tpAmb><cOrgao>${uf}</cOrgao><cStat>135</cStat><xMotivo>Evento registrado e vinculado a NF-e</xMotivo><chNFe>${input.accessKey}</chNFe><tpEvento>${input.type}</tpEvento><nSeqEvento>${input.sequence}</nSeqEvento><dhRegEvento>${when}</dhRegEvento><nProt>${protocol}</nProt></infEvento></retEvento></procEventoNFe>
`;
}

export async function nfsePdf(input: NfseInput, number: string, verification: string): Promise<Buffer> {
  const { w, finish } = start(`NFS-e ${number}`, number);
  text(w, 'SEM VALOR FISCAL - documento de demonstração, não enviado à prefeitura', 40, 9, true);
  w.y -= 24;
  text(w, 'NOTA FISCAL DE SERVIÇOS ELETRÔNICA - NFS-e', 40, 14, true);
  w.y -= 18;
  text(
    w,
    `Número ${number}   Código de verificação ${verification}   Emissão ${dateBr(input.issuedAt)}`,
    40,
    9,
  );
  w.y -= 26;
  text(w, 'PRESTADOR', 40, 7, true);
  w.y -= 12;
  text(w, `${input.emitter.name} - CNPJ ${input.emitter.cnpj} - IM ${input.emitter.im}`, 40, 9);
  w.y -= 12;
  text(w, addressLine(input.emitter.address), 40, 8);
  w.y -= 24;
  text(w, 'TOMADOR', 40, 7, true);
  w.y -= 12;
  text(
    w,
    input.taker
      ? `${input.taker.name} - ${input.taker.cnpj ? `CNPJ ${input.taker.cnpj}` : `CPF ${input.taker.cpf}`}`
      : 'Tomador não identificado (consumidores finais)',
    40,
    9,
  );
  if (input.taker?.address) {
    w.y -= 12;
    text(w, addressLine(input.taker.address), 40, 8);
  }
  w.y -= 24;
  text(w, 'DISCRIMINAÇÃO DO SERVIÇO', 40, 7, true);
  w.y -= 12;
  text(w, input.description.slice(0, 110), 40, 9);
  w.y -= 14;
  text(
    w,
    `Item da lista de serviços: ${input.serviceCode}   Código de tributação nacional: ${input.nationalCode}${input.nbs ? `   NBS: ${input.nbs}` : ''}   Local de incidência (IBGE): ${input.incidenceCityCode}`,
    40,
    8,
  );
  w.y -= 24;
  box(w, 'Valor do serviço', `R$ ${money(input.amountCents)}`, 40, 200);
  const g = input.ibsCbs;
  if (g) {
    // The reform's taxes (NFS-e NT 004): shown apart; in 2026 they are not added to the nota's value.
    w.y -= 34;
    text(w, 'IBS E CBS (REFORMA TRIBUTÁRIA)', 40, 7, true);
    w.y -= 12;
    box(w, 'Base de cálculo IBS/CBS', money(g.baseCents), 40, 125);
    box(w, `IBS da UF (${formatRateBR(g.ibsUfRate)})`, money(g.ibsUfCents), 170, 125);
    box(w, `IBS do município (${formatRateBR(g.ibsMunRate)})`, money(g.ibsMunCents), 300, 125);
    box(w, `CBS (${formatRateBR(g.cbsRate)})`, money(g.cbsCents), 430, 125);
  }
  w.y -= 40;
  text(w, 'Emitida pelo emissor de demonstração da loja: SEM VALOR FISCAL.', 40, 8);
  return finish();
}

function takerAddressXml(a: FiscalAddress): string {
  return `<Endereco><Endereco>${esc(a.street)}</Endereco><Numero>${esc(a.number)}</Numero>${a.complement ? `<Complemento>${esc(a.complement)}</Complemento>` : ''}<Bairro>${esc(a.district)}</Bairro><CodigoMunicipio>${a.cityCode}</CodigoMunicipio><Uf>${a.uf}</Uf><Cep>${a.cep}</Cep></Endereco>`;
}

/** A rate as the NFS-e's layout writes it: a percentage with two decimals ("0.10"). */
const nfseRate = (rate: number) => (rate / 10_000).toFixed(2);

/**
 * The NFS-e's IBS and CBS (NT 004 of the NFS-e Padrão Nacional), in the two places the national layout
 * keeps them: what the provider declares in its DPS (`DPS/infDPS/IBSCBS`: purpose 0 regular, personal
 * consumption, and `valores/trib/gIBSCBS` with CST and cClassTrib), and what the national system
 * computes on the NFS-e (`infNFSe/IBSCBS`: place of incidence, base, the rates per sphere and the
 * totals). The demo issuer stands for that system: it writes the values the shop computed.
 */
function nfseIbsCbsXml(input: NfseInput): { dps: string; nfse: string } {
  const g = input.ibsCbs;
  if (!g) return { dps: '', nfse: '' };
  return {
    dps: `<DPS><infDPS><IBSCBS><finNFSe>0</finNFSe><indFinal>1</indFinal>${input.operationIndicator ? `<cIndOp>${input.operationIndicator}</cIndOp>` : ''}<valores><trib><gIBSCBS><CST>${g.situation}</CST><cClassTrib>${g.classification}</cClassTrib></gIBSCBS></trib></valores></IBSCBS></infDPS></DPS>`,
    nfse: `<IBSCBS><cLocalidadeIncid>${input.incidenceCityCode}</cLocalidadeIncid><valores><vBC>${decimal(g.baseCents)}</vBC><uf><pIBSUF>${nfseRate(g.ibsUfRate)}</pIBSUF><pAliqEfetUF>${nfseRate(g.ibsUfRate)}</pAliqEfetUF></uf><mun><pIBSMun>${nfseRate(g.ibsMunRate)}</pIBSMun><pAliqEfetMun>${nfseRate(g.ibsMunRate)}</pAliqEfetMun></mun><fed><pCBS>${nfseRate(g.cbsRate)}</pCBS><pAliqEfetCBS>${nfseRate(g.cbsRate)}</pAliqEfetCBS></fed></valores><totCIBS><gIBS><vIBSTot>${decimal(g.ibsCents)}</vIBSTot><gIBSUFTot><vIBSUF>${decimal(g.ibsUfCents)}</vIBSUF></gIBSUFTot><gIBSMunTot><vIBSMun>${decimal(g.ibsMunCents)}</vIBSMun></gIBSMunTot></gIBS><gCBS><vCBS>${decimal(g.cbsCents)}</vCBS></gCBS></totCIBS></IBSCBS>`,
  };
}

export function nfseXml(input: NfseInput, number: string, verification: string): string {
  const reform = nfseIbsCbsXml(input);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- SEM VALOR FISCAL: emitida pelo emissor de demonstração, nunca enviada à prefeitura. -->
<CompNfse><Nfse><InfNfse><Numero>${number}</Numero><CodigoVerificacao>${verification}</CodigoVerificacao><DataEmissao>${brasilia(input.issuedAt)}</DataEmissao><Competencia>${input.competence}</Competencia><Servico><Valores><ValorServicos>${decimal(input.amountCents)}</ValorServicos></Valores><ItemListaServico>${esc(input.serviceCode)}</ItemListaServico><cTribNac>${input.nationalCode}</cTribNac>${input.nbs ? `<cNBS>${input.nbs}</cNBS>` : ''}${input.cnae ? `<CodigoCnae>${input.cnae}</CodigoCnae>` : ''}${input.municipalCode ? `<CodigoTributacaoMunicipio>${esc(input.municipalCode)}</CodigoTributacaoMunicipio>` : ''}<Discriminacao>${esc(input.description)}</Discriminacao><CodigoMunicipio>${input.emitter.address.cityCode}</CodigoMunicipio><cLocIncid>${input.incidenceCityCode}</cLocIncid></Servico><PrestadorServico><IdentificacaoPrestador><Cnpj>${input.emitter.cnpj}</Cnpj><InscricaoMunicipal>${esc(input.emitter.im)}</InscricaoMunicipal></IdentificacaoPrestador><RazaoSocial>${esc(input.emitter.name)}</RazaoSocial></PrestadorServico>${input.taker ? `<TomadorServico><IdentificacaoTomador><CpfCnpj>${input.taker.cnpj ? `<Cnpj>${input.taker.cnpj}</Cnpj>` : `<Cpf>${input.taker.cpf}</Cpf>`}</CpfCnpj></IdentificacaoTomador><RazaoSocial>${esc(input.taker.name)}</RazaoSocial>${input.taker.address ? takerAddressXml(input.taker.address) : ''}</TomadorServico>` : ''}${reform.nfse}${reform.dps}</InfNfse></Nfse></CompNfse>
`;
}
