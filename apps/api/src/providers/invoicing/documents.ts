import bwip from 'bwip-js/node';
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { formatAccessKey } from './access-key.ts';
import type { FiscalAddress, NfeInput, NfseInput } from './invoicing.provider.ts';

/**
 * The offline provider's files: a DANFE-like PDF (with the key's Code 128C barcode) and an NF-e XML in
 * the layout 4.00 shape, unsigned, and the same for the NFS-e. Every page says "SEM VALOR FISCAL".
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
  `${a.street}, ${a.number} - ${a.district} - ${a.city}/${a.uf} - CEP ${a.cep.replace(/^(\d{5})(\d{3})$/, '$1-$2')}`;

/** Code 128 (set C for the 44 digits) drawn as vector bars. */
function drawBarcode(page: PDFPage, digits: string, x: number, y: number, width: number, height: number) {
  const [symbol] = bwip.raw('code128', digits, {}) as Array<{ sbs: number[] }>;
  if (!symbol) return;
  const modules = symbol.sbs.reduce((a, b) => a + b, 0);
  const unit = width / modules;
  let at = x;
  symbol.sbs.forEach((w, i) => {
    if (i % 2 === 0) page.drawRectangle({ x: at, y, width: w * unit, height, color: rgb(0, 0, 0) });
    at += w * unit;
  });
}

interface Writer {
  page: PDFPage;
  font: PDFFont;
  bold: PDFFont;
  y: number;
}

function text(w: Writer, s: string, x: number, size = 9, bold = false) {
  w.page.drawText(ansi(s), { x, y: w.y, size, font: bold ? w.bold : w.font });
}

function box(w: Writer, label: string, value: string, x: number, width: number, height = 24) {
  w.page.drawRectangle({
    x,
    y: w.y - height + 10,
    width,
    height,
    borderWidth: 0.6,
    borderColor: rgb(0, 0, 0),
  });
  w.page.drawText(ansi(label.toUpperCase()), { x: x + 3, y: w.y + 2, size: 5.5, font: w.font });
  w.page.drawText(ansi(value), { x: x + 3, y: w.y - 9, size: 8.5, font: w.bold, maxWidth: width - 6 });
}

async function start(title: string): Promise<{ doc: PDFDocument; w: Writer }> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setProducer('Passada');
  doc.setCreator('Passada (emissor de demonstração)');
  const page = doc.addPage([595.28, 841.89]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = { page, font, bold, y: 800 };
  // The watermark, across the page.
  page.drawText('SEM VALOR FISCAL', {
    x: 90,
    y: 300,
    size: 60,
    font: bold,
    color: rgb(0.85, 0.1, 0.1),
    opacity: 0.25,
    rotate: degrees(35),
  });
  return { doc, w };
}

export async function nfePdf(input: NfeInput, key: string, protocol: string): Promise<Buffer> {
  const { doc, w } = await start(`DANFE ${input.number}`);
  text(w, 'SEM VALOR FISCAL - documento de demonstração, não enviado à SEFAZ', 40, 9, true);
  w.y -= 22;
  text(w, 'DANFE', 40, 16, true);
  text(w, 'Documento Auxiliar da Nota Fiscal Eletrônica', 110, 9);
  w.y -= 14;
  text(
    w,
    `${input.purpose === 4 ? '0 - ENTRADA (devolução)' : '1 - SAÍDA'}   Nº ${String(input.number).padStart(9, '0')}   SÉRIE ${input.series}`,
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
  drawBarcode(w.page, key, 40, w.y, 330, 40);
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
  w.y -= 40;
  text(w, 'Emitida pelo emissor de demonstração da loja: SEM VALOR FISCAL.', 40, 8);
  return Buffer.from(await doc.save());
}

export function nfeXml(input: NfeInput, key: string, protocol: string): string {
  const e = input.emitter;
  const addr = (a: FiscalAddress, tag: string) =>
    `<${tag}><xLgr>${esc(a.street)}</xLgr><nro>${esc(a.number)}</nro><xBairro>${esc(a.district)}</xBairro><cMun>${a.cityCode}</cMun><xMun>${esc(a.city)}</xMun><UF>${a.uf}</UF><CEP>${a.cep}</CEP></${tag}>`;
  const crt = e.regime === 'simples_nacional' ? 1 : e.regime === 'simples_excesso' ? 2 : 3;
  const items = input.items
    .map(
      (it, i) =>
        `<det nItem="${i + 1}"><prod><cProd>${esc(it.code)}</cProd><xProd>${esc(it.description)}</xProd><NCM>${it.ncm}</NCM><CFOP>${it.cfop}</CFOP><uCom>UN</uCom><qCom>${it.quantity.toFixed(4)}</qCom><vUnCom>${decimal(it.unitCents)}</vUnCom><vProd>${decimal(it.totalCents)}</vProd></prod><imposto><ICMS><orig>${it.origin}</orig><${crt === 1 ? 'CSOSN' : 'CST'}>${it.icmsSituation}</${crt === 1 ? 'CSOSN' : 'CST'}></ICMS><PIS><CST>${it.pisSituation}</CST></PIS><COFINS><CST>${it.cofinsSituation}</CST></COFINS></imposto></det>`,
    )
    .join('');
  const ref = input.referencedKey ? `<NFref><refNFe>${input.referencedKey}</refNFe></NFref>` : '';
  const products = input.items.reduce((s, i) => s + i.totalCents, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- SEM VALOR FISCAL: emitida pelo emissor de demonstração, nunca enviada à SEFAZ. -->
<nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00"><NFe><infNFe Id="NFe${key}" versao="4.00"><ide><cUF>${key.slice(0, 2)}</cUF><cNF>${key.slice(35, 43)}</cNF><natOp>${esc(input.operation)}</natOp><mod>55</mod><serie>${input.series}</serie><nNF>${input.number}</nNF><dhEmi>${brasilia(input.issuedAt)}</dhEmi><tpNF>${input.purpose === 4 ? 0 : 1}</tpNF><tpEmis>1</tpEmis><cDV>${key[43]}</cDV><tpAmb>2</tpAmb><finNFe>${input.purpose}</finNFe><indFinal>1</indFinal>${ref}</ide><emit><CNPJ>${e.cnpj}</CNPJ><xNome>${esc(e.name)}</xNome>${addr(e.address, 'enderEmit')}<IE>${e.ie}</IE><CRT>${crt}</CRT></emit><dest><CPF>${input.recipient.cpf}</CPF><xNome>${esc(input.recipient.name)}</xNome>${input.recipient.address ? addr(input.recipient.address, 'enderDest') : ''}<indIEDest>9</indIEDest></dest>${items}<total><ICMSTot><vProd>${decimal(products)}</vProd><vFrete>${decimal(input.shippingCents)}</vFrete><vDesc>${decimal(input.discountCents)}</vDesc><vNF>${decimal(input.totalCents)}</vNF></ICMSTot></total></infNFe></NFe><protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><chNFe>${key}</chNFe><nProt>${protocol}</nProt><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe></nfeProc>
`;
}

export async function nfsePdf(input: NfseInput, number: string, verification: string): Promise<Buffer> {
  const { doc, w } = await start(`NFS-e ${number}`);
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
      ? `${input.taker.name} - CPF ${input.taker.cpf}`
      : 'Tomador não identificado (consumidores finais)',
    40,
    9,
  );
  w.y -= 24;
  text(w, 'DISCRIMINAÇÃO DO SERVIÇO', 40, 7, true);
  w.y -= 12;
  text(w, input.description.slice(0, 110), 40, 9);
  w.y -= 14;
  text(w, `Item da lista de serviços: ${input.serviceCode}`, 40, 8);
  w.y -= 24;
  box(w, 'Valor do serviço', `R$ ${money(input.amountCents)}`, 40, 200);
  w.y -= 40;
  text(w, 'Emitida pelo emissor de demonstração da loja: SEM VALOR FISCAL.', 40, 8);
  return Buffer.from(await doc.save());
}

export function nfseXml(input: NfseInput, number: string, verification: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- SEM VALOR FISCAL: emitida pelo emissor de demonstração, nunca enviada à prefeitura. -->
<CompNfse><Nfse><InfNfse><Numero>${number}</Numero><CodigoVerificacao>${verification}</CodigoVerificacao><DataEmissao>${brasilia(input.issuedAt)}</DataEmissao><Servico><Valores><ValorServicos>${decimal(input.amountCents)}</ValorServicos></Valores><ItemListaServico>${esc(input.serviceCode)}</ItemListaServico><Discriminacao>${esc(input.description)}</Discriminacao><CodigoMunicipio>${input.emitter.address.cityCode}</CodigoMunicipio></Servico><PrestadorServico><IdentificacaoPrestador><Cnpj>${input.emitter.cnpj}</Cnpj><InscricaoMunicipal>${esc(input.emitter.im)}</InscricaoMunicipal></IdentificacaoPrestador><RazaoSocial>${esc(input.emitter.name)}</RazaoSocial></PrestadorServico>${input.taker ? `<TomadorServico><IdentificacaoTomador><CpfCnpj><Cpf>${input.taker.cpf}</Cpf></CpfCnpj></IdentificacaoTomador><RazaoSocial>${esc(input.taker.name)}</RazaoSocial></TomadorServico>` : ''}</InfNfse></Nfse></CompNfse>
`;
}
